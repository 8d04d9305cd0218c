// A scan's decimated points as a layer (layer.ts): the preview a LAS stream or a whole-file
// decode produced (../point-cloud.ts, ../las-stream.ts), redrawn as more arrives. Points are
// not picked (a click goes to the boxes); a level-of-detail loader for whole scans would
// be another layer of this kind that also reads the camera in beforeRender. The preview is
// placed by its file's pose as the COPC that replaces it once converted (../pose.ts, shared
// with copc-points.ts): its points are held relative to the preview's own centre and its
// group is moved, so the scan does not jump when the COPC takes its place.
import { Box3, BufferAttribute, BufferGeometry, Group, Points, PointsMaterial, Vector3 } from 'three';
import type { LayerContext, Pose, SceneLayer } from '../layer.ts';
import type { PointPreview } from '../point-cloud.ts';
import { placeByPose, posedPoint, samePose } from '../pose.ts';

export class ScanPointsLayer implements SceneLayer {
  readonly object = new Group();
  private points: Points | null = null;
  private preview: PointPreview | null = null;
  private ctx: LayerContext | null = null;
  private pose: Pose | null = null;
  /** The preview's own centre (its file's coordinates): its points are held relative to it. */
  private centre = new Vector3();
  /** The view's origin, once the preview has points. */
  private origin = new Vector3();
  /** The points' extent relative to the centre (before the pose). */
  private box = new Box3();
  /** Points drawn now (the browser tests read it through the canvas's data-points). */
  count = 0;

  readonly id: string;
  readonly label: string;

  constructor(id: string, label: string) {
    this.id = id;
    this.label = label;
  }

  attach(ctx: LayerContext): void {
    this.ctx = ctx;
    if (this.preview) this.setPreview(this.preview);
  }

  /** Draws the preview (replacing what was drawn): called again as a stream brings more points. */
  setPreview(preview: PointPreview): void {
    this.preview = preview;
    const ctx = this.ctx;
    if (!ctx) return;
    this.release();
    const n = preview.count;
    const own = new Box3();
    const v = new Vector3();
    for (let i = 0; i < n; i++) own.expandByPoint(v.set(preview.positions[i * 3]!, preview.positions[i * 3 + 1]!, preview.positions[i * 3 + 2]!));
    // An empty preview claims no origin: the first layer with points does.
    this.centre = own.isEmpty() ? new Vector3() : own.getCenter(new Vector3());
    this.origin = own.isEmpty() ? (ctx.origin()?.clone() ?? new Vector3()) : ctx.claimOrigin(posedPoint(this.pose, this.centre)).clone();
    const local = new Float32Array(n * 3);
    this.box.makeEmpty();
    for (let i = 0; i < n; i++) {
      v.set(preview.positions[i * 3]! - this.centre.x, preview.positions[i * 3 + 1]! - this.centre.y, preview.positions[i * 3 + 2]! - this.centre.z);
      local[i * 3] = v.x;
      local[i * 3 + 1] = v.y;
      local[i * 3 + 2] = v.z;
      this.box.expandByPoint(v);
    }
    placeByPose(this.object, this.pose, this.centre, this.origin);
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

  /** Places the preview by its file's pose (null: where its coordinates say), as copc-points.ts places the COPC. */
  setPose(pose: Pose | null): void {
    if (samePose(pose, this.pose)) return;
    this.pose = pose;
    // Before its first points the pose is kept: setPreview places them by it.
    if (!this.ctx || this.box.isEmpty()) return;
    placeByPose(this.object, this.pose, this.centre, this.origin);
    this.ctx.changed();
  }

  /** The extent in the view's frame: the held points' box turned and moved by the group's pose. */
  bounds(): Box3 | null {
    return this.box.isEmpty() ? null : this.box.clone().applyMatrix4(this.object.matrix);
  }

  dispose(): void {
    this.release();
  }

  /** Frees the drawn points' GPU buffers and their material (each redraw makes new ones). */
  private release(): void {
    if (!this.points) return;
    this.object.remove(this.points);
    this.points.geometry.dispose();
    (this.points.material as PointsMaterial).dispose();
    this.points = null;
  }
}
