import { AWAY_PATH, tripUnderWay } from '../probes/page-trip.js';

/**
 * The page the lifecycle experiments step away to: while a trip is under way it goes back at
 * once, so the page that left is restored from the back/forward cache or loaded again.
 */
const GO_BACK_AFTER_MS = 300;

const status = document.getElementById('away-status');
if (tripUnderWay()) {
  if (status) status.textContent = 'The beacons page stepped away to here; going back to it in a moment\u2026';
  setTimeout(() => history.back(), GO_BACK_AFTER_MS);
} else if (status) {
  status.textContent = `Nothing to do here: the lifecycle experiments of the beacons page step away to ${AWAY_PATH} and come straight back.`;
}
