// The Local Network Access page's worker: fetches the URL it is given and posts back the status
// read, or the name of the error fetch rejected with. A worker's requests are checked as its
// page's are; this shows it.
addEventListener('message', (event: MessageEvent<string>) => {
  fetch(event.data).then(
    (answer) => postMessage(String(answer.status)),
    (err: unknown) => postMessage((err as Error).name),
  );
});
