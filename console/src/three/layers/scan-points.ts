// A scan's decimated points as a layer (layer.ts): the preview a LAS stream or a whole-file
// decode produced (../point-cloud.ts, ../las-stream.ts), redrawn as more arrives. Points are
// not picked (a click goes to the boxes); a level-of-detail loader for whole scans would
// be another layer of this kind that also reads the camera in beforeRender.
import { Box3, BufferAttribute, BufferGeometry, Group, Points, PointsMaterial, Vector3 } from 'three';
import type { LayerContext, SceneLayer } from '../layer.ts';
import type { PointPreview } from '../point-cloud.ts';

export class ScanPointsLayer implements SceneLayer {
  readonly object = new Group();
  private points: Points | null = null;
  private preview: PointPreview | null = null;
  private ctx: LayerContext | null = null;
  private box = new Box3();
  /** Points drawn now (the browser tests read it through the canvas's data-points). */
  count = 0;

  constructor(
    readonly id: string,
    readonly label: string,
  ) {}

  attach(ctx: LayerContext): void {
    this.ctx = ctx;
    if (this.preview) this.setPreview(this.preview);
  }

  /** Draws the preview (replacing what was drawn): called again as a stream brings more points. */
  setPreview(preview: PointPreview): void {
    this.preview = preview;
    const ctx = this.ctx;
    if (!ctx) return;
    if (this.points) {
      this.object.remove(this.points);
      this.points.geometry.dispose();
    }
    const n = preview.count;
    const world = new Box3();
    const v = new Vector3();
    for (let i = 0; i < n; i++) world.expandByPoint(v.set(preview.positions[i * 3]!, preview.positions[i * 3 + 1]!, preview.positions[i * 3 + 2]!));
    const origin = world.isEmpty() ? (ctx.origin() ?? new Vector3()) : ctx.claimOrigin(world.getCenter(new Vector3()));
    const local = new Float32Array(n * 3);
    this.box.makeEmpty();
    for (let i = 0; i < n; i++) {
      v.set(preview.positions[i * 3]! - origin.x, preview.positions[i * 3 + 1]! - origin.y, preview.positions[i * 3 + 2]! - origin.z);
      local[i * 3] = v.x;
      local[i * 3 + 1] = v.y;
      local[i * 3 + 2] = v.z;
      this.box.expandByPoint(v);
    }
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(local, 3));
    if (preview.colors) g.setAttribute('color', new BufferAttribute(preview.colors, 3, true));
    g.computeBoundingSphere();
    this.points = new Points(g, new PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: Boolean(preview.colors), color: preview.colors ? 0xffffff : 0x5b6470 }));
    this.points.raycast = () => undefined;
    this.object.add(this.points);
    this.count = n;
    ctx.changed();
  }

  bounds(): Box3 | null {
    return this.box.isEmpty() ? null : this.box.clone();
  }

  dispose(): void {
    this.points?.geometry.dispose();
  }
}
