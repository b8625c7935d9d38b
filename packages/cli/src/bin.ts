// The `origin-lab` program (bin/origin-lab.js is this, bundled).
import { runFromCommandLine } from './main.js';

runFromCommandLine();
