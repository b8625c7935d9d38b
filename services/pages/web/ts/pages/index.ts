import { byId } from '../frame/dom.js';
import { setupPage } from '../page/setup-page.js';

const ctx = setupPage();

// The two addresses a class opens, large enough to read from the back of the room.
byId('room-self').textContent = `${ctx.site.self}/`;
byId('room-other').textContent = ctx.site.other
  ? `${ctx.site.other}/`
  : 'no other origin: this host is not in SITE_PAIRS';
