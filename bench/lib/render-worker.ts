// A thread that renders reading-set images (reading-render.ts), so that two are warped at once: the
// warp and the light are JavaScript, one core each. Run by renderSet (reading-set.ts) through piscina.
import { renderScene, type Scene } from './reading-render.js';

export interface RenderJob {
  scene: Scene;
  file: string;
  seed: string;
}

export default function render(job: RenderJob): Promise<void> {
  return renderScene(job.scene, job.file, job.seed);
}
