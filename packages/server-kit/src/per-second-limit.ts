/**
 * Lets at most `perSecond` things happen in each second of `now` (milliseconds, such as
 * performance.now()) and counts the rest. The count of a second is handed to `report` once that
 * second is over: at the first call of a later second, by a timer when no call comes, or when the
 * process exits, so a count is never lost to a quiet server or a stop. perSecond 0: no limit.
 */
export function perSecondLimit(perSecond: number, report: (refused: number) => void): (now: number) => boolean {
  if (perSecond === 0) return () => true;
  let second = -Infinity;
  let admitted = 0;
  let refused = 0;
  // Set when the first of a second is refused, so it is pending exactly while refused > 0.
  let timer: NodeJS.Timeout | undefined;
  const reportRefused = () => {
    if (refused === 0) return;
    clearTimeout(timer);
    process.removeListener('exit', reportRefused);
    const count = refused;
    refused = 0;
    report(count);
  };
  return (now) => {
    const thisSecond = Math.floor(now / 1000);
    if (thisSecond !== second) {
      reportRefused();
      second = thisSecond;
      admitted = 0;
    }
    if (admitted < perSecond) {
      admitted++;
      return true;
    }
    if (refused++ === 0) {
      // Unref'd: a pending count never keeps a process alive; the 'exit' listener reports it then.
      timer = setTimeout(reportRefused, (thisSecond + 1) * 1000 - now + 1).unref();
      process.on('exit', reportRefused);
    }
    return false;
  };
}
