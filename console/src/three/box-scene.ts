// A tag list's boxes in 3D (three.js): one InstancedMesh for all boxes (50,000 boxes are
// one draw call), axis-aligned boxes (boundingBox: minX, minY, minZ, maxX, maxY, maxZ) and
// oriented ones (orientedBoundingBox: centre x y z, quaternion x y z w, full sizes x y z;
// docs/tags.md), coloured by class; click picking; fit-to-view; Z up (survey coordinates).
// Coordinates are shifted by the boxes' centre before they become float32 matrices, so
// survey coordinates (millions of metres) keep centimetre precision.
import {
  AmbientLight, Box3, BufferAttribute, BufferGeometry, Color, DirectionalLight, InstancedMesh, Matrix4, MeshLambertMaterial, PerspectiveCamera, Points,
  PointsMaterial, Quaternion, Raycaster, Scene, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import type { TagData } from '../types.ts';
import type { PointPreview } from './point-cloud.ts';

export interface PlacedBox {
  /** Index into the tags given to setBoxes. */
  tagIndex: number;
  position: Vector3;
  quaternion: Quaternion;
  size: Vector3;
}

/** The box to draw for a tag: its oriented box if it has one, else its axis-aligned box; null without geometry. */
export function boxOf(data: TagData): { center: [number, number, number]; quaternion: [number, number, number, number]; size: [number, number, number] } | null {
  const o = data.orientedBoundingBox;
  if (Array.isArray(o) && o.length === 10) {
    return { center: [o[0]!, o[1]!, o[2]!], quaternion: [o[3]!, o[4]!, o[5]!, o[6]!], size: [o[7]!, o[8]!, o[9]!] };
  }
  const b = data.boundingBox;
  if (Array.isArray(b) && b.length === 6) {
    return {
      center: [(b[0]! + b[3]!) / 2, (b[1]! + b[4]!) / 2, (b[2]! + b[5]!) / 2],
      quaternion: [0, 0, 0, 1],
      size: [b[3]! - b[0]!, b[4]! - b[1]!, b[5]! - b[2]!],
    };
  }
  return null;
}

/** A stable colour per class (hue from the class name's hash); tags without a class are grey. */
export function colourOfClass(cls: string | undefined): Color {
  if (!cls) return new Color(0x8a8f98);
  let h = 2166136261;
  for (let i = 0; i < cls.length; i++) h = Math.imul(h ^ cls.charCodeAt(i), 16777619);
  return new Color().setHSL(((h >>> 0) % 360) / 360, 0.65, 0.5);
}

/**
 * A unit cube of 8 shared corners and 12 triangles (three's BoxGeometry has 24 vertices:
 * normals per face). Flat shading computes the face normal per pixel, so a box costs a third
 * of the vertex work: what counts for 50,000 boxes on a CPU renderer.
 */
export function unitCube(): BufferGeometry {
  const g = new BufferGeometry();
  const p = [];
  for (let i = 0; i < 8; i++) p.push(i & 1 ? 0.5 : -0.5, i & 2 ? 0.5 : -0.5, i & 4 ? 0.5 : -0.5);
  g.setAttribute('position', new BufferAttribute(new Float32Array(p), 3));
  // Counter-clockwise seen from outside: -x, +x, -y, +y, -z, +z.
  g.setIndex([0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5, 0, 1, 5, 0, 5, 4, 2, 6, 7, 2, 7, 3, 0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6]);
  g.computeBoundingBox();
  g.computeBoundingSphere();
  return g;
}

/** The centre of a preview's points (its origin when there is no box). */
function previewCentre(p: PointPreview): Vector3 {
  const b = new Box3();
  const v = new Vector3();
  for (let i = 0; i < p.count; i++) b.expandByPoint(v.set(p.positions[i * 3]!, p.positions[i * 3 + 1]!, p.positions[i * 3 + 2]!));
  return b.isEmpty() ? new Vector3() : b.getCenter(new Vector3());
}

/** A flat box (allowed by the rules) still gets a visible thickness. */
const MIN_SIZE = 1e-3;

export class BoxScene {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(50, 1, 0.01, 1e7);
  readonly controls: OrbitControls;
  private mesh: InstancedMesh | null = null;
  /** instanceId → index of the tag given to setBoxes. */
  private instanceTag: Int32Array = new Int32Array(0);
  private origin = new Vector3();
  private bounds = new Box3();
  private frame = 0;
  private points: Points | null = null;
  private preview: PointPreview | null = null;
  private readonly resizeObserver: ResizeObserver;

  constructor(readonly canvas: HTMLCanvasElement) {
    // preserveDrawingBuffer: the picture can be read back (tests, snapshots).
    this.renderer = new WebGLRenderer({ canvas, antialias: false, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
    this.scene.background = new Color(0xf4f6f8);
    this.camera.up.set(0, 0, 1);
    this.scene.add(new AmbientLight(0xffffff, 1.6));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(0.5, 0.3, 1);
    this.scene.add(sun);
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.addEventListener('change', () => this.requestRender());
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(canvas);
    this.resize();
  }

  /** Draws the tags' boxes (replacing any drawn before); answers how many were drawn. */
  setBoxes(tags: readonly TagData[]): number {
    if (this.mesh) {
      this.scene.remove(this.mesh);
      this.mesh.dispose();
    }
    const boxes = tags.map(boxOf);
    const drawn = boxes.filter((b) => b !== null).length;
    this.bounds.makeEmpty();
    for (const b of boxes) if (b) this.bounds.expandByPoint(new Vector3(...b.center));
    this.bounds.getCenter(this.origin);
    if (!drawn) this.origin.set(0, 0, 0);
    if (!drawn && this.preview) this.origin.copy(previewCentre(this.preview));

    const mesh = new InstancedMesh(unitCube(), new MeshLambertMaterial({ flatShading: true }), Math.max(1, drawn));
    mesh.count = drawn;
    this.instanceTag = new Int32Array(drawn);
    const m = new Matrix4();
    const p = new Vector3();
    const q = new Quaternion();
    const s = new Vector3();
    let i = 0;
    this.bounds.makeEmpty();
    boxes.forEach((b, tagIndex) => {
      if (!b) return;
      p.set(b.center[0] - this.origin.x, b.center[1] - this.origin.y, b.center[2] - this.origin.z);
      q.set(...b.quaternion).normalize();
      s.set(Math.max(b.size[0], MIN_SIZE), Math.max(b.size[1], MIN_SIZE), Math.max(b.size[2], MIN_SIZE));
      m.compose(p, q, s);
      mesh.setMatrixAt(i, m);
      mesh.setColorAt(i, colourOfClass(tags[tagIndex]!.class));
      this.instanceTag[i] = tagIndex;
      this.bounds.expandByPoint(p.clone().addScalar(-s.length() / 2)).expandByPoint(p.clone().addScalar(s.length() / 2));
      i++;
    });
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    mesh.computeBoundingSphere();
    mesh.computeBoundingBox();
    this.mesh = mesh;
    this.scene.add(mesh);
    if (this.preview) this.drawPoints(this.preview);
    this.fitToView();
    return drawn;
  }

  /**
   * Draws a scan's decimated points in the boxes' frame (replacing a previous preview).
   * A streamed preview calls it again as points arrive, framing only the first time
   * (`fit` false) so the camera is not moved under the user.
   */
  setPoints(preview: PointPreview, fit = true): void {
    this.preview = preview;
    if (!this.instanceTag.length) {
      this.origin.copy(previewCentre(preview));
      this.bounds.makeEmpty();
    }
    this.drawPoints(preview);
    if (fit) this.fitToView();
    else this.requestRender();
  }

  private drawPoints(preview: PointPreview): void {
    if (this.points) {
      this.scene.remove(this.points);
      this.points.geometry.dispose();
    }
    const local = new Float32Array(preview.count * 3);
    const v = new Vector3();
    for (let i = 0; i < preview.count; i++) {
      v.set(preview.positions[i * 3]! - this.origin.x, preview.positions[i * 3 + 1]! - this.origin.y, preview.positions[i * 3 + 2]! - this.origin.z);
      local[i * 3] = v.x;
      local[i * 3 + 1] = v.y;
      local[i * 3 + 2] = v.z;
      this.bounds.expandByPoint(v);
    }
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(local, 3));
    if (preview.colors) g.setAttribute('color', new BufferAttribute(preview.colors, 3, true));
    g.computeBoundingSphere();
    // Points are not picked: clicks go to the boxes.
    this.points = new Points(g, new PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: Boolean(preview.colors), color: preview.colors ? 0xffffff : 0x5b6470 }));
    this.points.raycast = () => undefined;
    this.scene.add(this.points);
  }

  /** Frames every box. */
  fitToView(): void {
    if (this.bounds.isEmpty()) {
      this.camera.position.set(10, -10, 10);
      this.controls.target.set(0, 0, 0);
    } else {
      const centre = this.bounds.getCenter(new Vector3());
      const radius = Math.max(this.bounds.getSize(new Vector3()).length() / 2, 0.5);
      const distance = radius / Math.sin((this.camera.fov * Math.PI) / 360);
      this.controls.target.copy(centre);
      this.camera.position.copy(centre).add(new Vector3(1, -1.2, 0.9).normalize().multiplyScalar(distance * 1.1));
      this.camera.near = Math.max(distance / 1e4, 1e-3);
      this.camera.far = distance * 10;
      this.camera.updateProjectionMatrix();
    }
    this.controls.update();
    this.requestRender();
  }

  /** The tag index under a point of the canvas (client coordinates), or null. */
  pick(clientX: number, clientY: number): number | null {
    if (!this.mesh) return null;
    const r = this.canvas.getBoundingClientRect();
    const ndc = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    const ray = new Raycaster();
    ray.setFromCamera(ndc, this.camera);
    const hit = ray.intersectObject(this.mesh, false)[0];
    return hit?.instanceId === undefined ? null : this.instanceTag[hit.instanceId]!;
  }

  /** Where a tag's box centre appears on the canvas (client coordinates), for tests and focus. */
  screenPointOf(tagIndex: number): { x: number; y: number } | null {
    if (!this.mesh) return null;
    const i = this.instanceTag.indexOf(tagIndex);
    if (i < 0) return null;
    const m = new Matrix4();
    this.mesh.getMatrixAt(i, m);
    const v = new Vector3().setFromMatrixPosition(m).project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderer.render(this.scene, this.camera);
    });
  }

  /** Renders now (benchmarks time frames with it). */
  renderNow(): void {
    this.renderer.render(this.scene, this.camera);
  }

  private resize(): void {
    const w = this.canvas.clientWidth || 1;
    const h = this.canvas.clientHeight || 1;
    this.renderer.setSize(w, h, false);
    this.camera.aspect = w / h;
    this.camera.updateProjectionMatrix();
    this.requestRender();
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.resizeObserver.disconnect();
    this.controls.dispose();
    this.mesh?.dispose();
    this.points?.geometry.dispose();
    this.renderer.dispose();
  }
}
