// The entry of a render thread (render-pool.ts). A new thread does not inherit the TypeScript
// loader of the main thread (`npm start` registers tsx there; vitest transforms on its own), so
// this plain module registers tsx in the thread, with the project's tsconfig for its path
// aliases, and hands piscina the TypeScript worker's task function.
import { fileURLToPath } from 'node:url';
import { register } from 'tsx/esm/api';

register({ tsconfig: fileURLToPath(new URL('../../../../tsconfig.json', import.meta.url)) });
const { default: renderTask } = await import('./render-worker.ts');
export default renderTask;
