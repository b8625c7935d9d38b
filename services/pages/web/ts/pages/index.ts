import { setupPage } from '../frame/page.js';

setupPage();
