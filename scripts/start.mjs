// `npm start`: build what is missing, then run the server (it honours every ADOPS_* variable).
import { ensureBuild } from './ensure-build.mjs';

ensureBuild();
await import('../server/dist/main.js').then((m) => m.runMain());
