import { setupPage } from '../lib/page.js';

setupPage();
