// A converted scan streamed by level of detail (docs/console.md "Streamed scans (COPC)"):
// the service's COPC output (docs/point-clouds.md) read by byte ranges with `copc`
// (copc.js, the COPC authors' reader, over laz-perf's WebAssembly). The header and the root
// hierarchy page are read once; before each frame the octree is walked from the root and a
// node is refined while its point spacing covers more than MAX_ERROR_PX pixels on screen
// (screen-space error, from the camera), nodes outside the view's frustum skipped, until
// the point budget is spent; the nodes picked are fetched (PARALLEL at a time, largest
// error first) and drawn as three.js Points; nodes no longer picked are hidden, and freed
// when what is held exceeds the budget. Hierarchy pages below the root page are read when
// the walk reaches them. The scan is placed by its file's pose (translation, rotation: a
// project point is R·p + t; ../pose.ts, shared with the preview); its points are held
// relative to the scan's own centre, so a pose far from the view's origin costs no
// precision, and the walk reads the camera in the scan's frame.
import { Box3, BufferAttribute, BufferGeometry, Frustum, Group, Matrix4, Points, PointsMaterial, Sphere, Vector3 } from 'three';
import { Copc, type Hierarchy, type View } from 'copc';
import { createLazPerf, type LazPerf } from 'laz-perf';
import { VIEW_POINT_BUDGET, type ColourMode, type FrameInfo, type LayerContext, type Pose, type SceneLayer } from '../layer.ts';
import { placeByPose, posedPoint, samePose } from '../pose.ts';

/** Reads bytes [begin, end) of the COPC file (end exclusive, as copc.js asks). */
export type RangeGetter = (begin: number, end: number) => Promise<Uint8Array>;

/** What a layer needs of a COPC octree to pick nodes: the header's facts and the hierarchy known so far. */
export interface CopcOctree {
  pointCount: number;
  pointDataRecordFormat: number;
  min: [number, number, number];
  max: [number, number, number];
  /** The root cube: minimum x, y, z then maximum x, y, z (COPC info). */
  cube: readonly [number, number, number, number, number, number];
  spacing: number;
  nodes: Hierarchy.Node.Map;
  pages: Hierarchy.Page.Map;
}

/**
 * Where a layer's octree and points come from; `count` is told the bytes of every read (the
 * status line, the tests and the bench). `copcByRanges`: a COPC file read by byte ranges;
 * `copcBySharedNodes` (shared-nodes.ts): a share session's layout and its nodes one by one.
 */
export interface CopcSource {
  /** The header and the root hierarchy page. */
  open(count: (bytes: number) => void): Promise<CopcOctree>;
  /** A hierarchy page below the root page (met as the walk reaches it). */
  loadPage(page: Hierarchy.Page, count: (bytes: number) => void): Promise<Hierarchy.Subtree>;
  /** One node's points, decoded. */
  loadNode(key: string, node: Hierarchy.Node, lazPerf: LazPerf, count: (bytes: number) => void): Promise<View>;
}

/** A COPC file by byte ranges (the service's `/point-cloud/copc`, or any range getter). */
export function copcByRanges(get: RangeGetter): CopcSource {
  let copc: Copc | null = null;
  const counted = (count: (bytes: number) => void): RangeGetter => async (begin, end) => {
    const bytes = await get(begin, end);
    count(bytes.byteLength);
    return bytes;
  };
  return {
    async open(count) {
      copc = await Copc.create(counted(count));
      const root = await Copc.loadHierarchyPage(counted(count), copc.info.rootHierarchyPage);
      const { header, info } = copc;
      return {
        pointCount: header.pointCount, pointDataRecordFormat: header.pointDataRecordFormat, min: header.min, max: header.max,
        cube: info.cube, spacing: info.spacing, nodes: root.nodes, pages: root.pages,
      };
    },
    loadPage: (page, count) => Copc.loadHierarchyPage(counted(count), page),
    loadNode: (_key, node, lazPerf, count) => Copc.loadPointDataView(counted(count), copc!, node, { lazPerf }),
  };
}

export type { ColourMode };

/** Points held at most (drawn and hidden together) by a layer alone; the view shares its own budget among its scans. */
export const POINT_BUDGET = VIEW_POINT_BUDGET;
/** A node is refined while its spacing spans more than this on screen. */
export const MAX_ERROR_PX = 2;
/** Node reads in flight at once. */
const PARALLEL = 4;
const ROOT = '0-0-0-0';
/**
 * Elevation colours, low → mid → high: violet-blue, teal, green. No red or amber, which
 * the view keeps for the selection (tag-boxes.ts).
 */
const ELEVATION_RAMP = [
  [48, 18, 160],
  [33, 145, 140],
  [120, 210, 80],
] as const;

export interface CopcStats {
  /** Range reads made and bytes they answered. */
  requests: number;
  bytes: number;
  /** Nodes and points held (drawn or hidden). */
  nodesHeld: number;
  pointsHeld: number;
  /** Points drawn in the last frame. */
  pointsDrawn: number;
  pointCount: number;
  /** Reads, bytes and milliseconds from the start until the first frame that drew points. */
  firstFrame: { requests: number; bytes: number; ms: number; points: number } | null;
}

interface HeldNode {
  key: string;
  points: Points;
  count: number;
  z: Float32Array;
  intensity: Uint16Array;
  rgb: Uint8Array | null;
}

/** laz-perf's module, created once per page (its WebAssembly is ~300 kB). */
let lazPerfOnce: Promise<LazPerf> | null = null;
export function lazPerfModule(wasmUrl: string): Promise<LazPerf> {
  const ready: Promise<LazPerf> = lazPerfOnce ?? createLazPerf({ locateFile: () => wasmUrl });
  lazPerfOnce = ready;
  return ready;
}

const parseKey = (key: string) => key.split('-').map(Number) as [number, number, number, number];

export class CopcPointsLayer implements SceneLayer {
  readonly object = new Group();
  private ctx: LayerContext | null = null;
  private copc: CopcOctree | null = null;
  private lazPerf: LazPerf | null = null;
  private readonly nodes = new Map<string, Hierarchy.Node>();
  private readonly pages = new Map<string, Hierarchy.Page>();
  private readonly pagesLoading = new Set<string>();
  private readonly held = new Map<string, HeldNode>();
  private readonly loading = new Set<string>();
  private wanted: string[] = [];
  private origin = new Vector3();
  /** The scan's own centre (its file's coordinates): its points are held relative to it. */
  private centre = new Vector3();
  private pose: Pose | null = null;
  private box = new Box3();
  private mode: ColourMode = 'rgb';
  private zRange: [number, number] = [0, 1];
  private readonly started = performance.now();
  private readonly material = new PointsMaterial({ size: 2, sizeAttenuation: false, vertexColors: true });
  private disposed = false;
  readonly stats: CopcStats = { requests: 0, bytes: 0, nodesHeld: 0, pointsHeld: 0, pointsDrawn: 0, pointCount: 0, firstFrame: null };
  /** A failure of a read (shown by the caller); the layer stops loading. */
  onError: (e: unknown) => void = () => undefined;
  /** Told when points arrive or leave (the status line). */
  onChange: () => void = () => undefined;

  readonly id: string;
  readonly label: string;
  private readonly source: CopcSource;
  private readonly lazPerfReady: Promise<LazPerf>;
  private budget: number;

  constructor(id: string, label: string, source: CopcSource, lazPerfReady: Promise<LazPerf>, budget = POINT_BUDGET) {
    this.id = id;
    this.label = label;
    this.source = source;
    this.lazPerfReady = lazPerfReady;
    this.budget = budget;
  }

  /** The points this layer may hold (the view shares its budget among its scans). */
  getPointBudget(): number {
    return this.budget;
  }

  setPointBudget(points: number): void {
    this.budget = Math.max(1, Math.floor(points));
    this.ctx?.requestRender();
  }

  /** Places the scan by its file's pose (null: where its coordinates say). */
  setPose(pose: Pose | null): void {
    if (samePose(pose, this.pose)) return;
    this.pose = pose;
    if (!this.copc) return;
    placeByPose(this.object, this.pose, this.centre, this.origin);
    this.ctx?.changed();
  }

  /** Every read of the layer is counted here (the status line, the tests and the bench). */
  private readonly count = (bytes: number): void => {
    this.stats.requests++;
    this.stats.bytes += bytes;
  };

  attach(ctx: LayerContext): void {
    this.ctx = ctx;
    void this.open().catch((e: unknown) => !this.disposed && this.onError(e));
  }

  /** The header, the VLRs and the root hierarchy page; then the view frames the scan's bounds. */
  private async open(): Promise<void> {
    const [copc, lazPerf] = await Promise.all([this.source.open(this.count), this.lazPerfReady]);
    if (this.disposed) return;
    this.copc = copc;
    this.lazPerf = lazPerf;
    this.stats.pointCount = copc.pointCount;
    const { min, max } = copc;
    const own = new Box3(new Vector3(...min), new Vector3(...max));
    this.centre = own.getCenter(new Vector3());
    this.box.copy(own).translate(this.centre.clone().negate());
    this.origin = this.ctx!.claimOrigin(posedPoint(this.pose, this.centre)).clone();
    placeByPose(this.object, this.pose, this.centre, this.origin);
    this.zRange = [min[2], max[2] > min[2] ? max[2] : min[2] + 1];
    const hasRgb = [2, 3, 5, 7, 8, 10].includes(copc.pointDataRecordFormat);
    if (!hasRgb && this.mode === 'rgb') this.mode = 'elevation';
    this.addPage(copc);
    this.ctx!.changed();
  }

  /** A hierarchy page's nodes, and the pages below it not read yet. */
  private addPage(sub: Pick<Hierarchy.Subtree, 'nodes' | 'pages'>): void {
    for (const [k, n] of Object.entries(sub.nodes)) if (n) this.nodes.set(k, n);
    for (const [k, p] of Object.entries(sub.pages)) if (p && !this.nodes.has(k)) this.pages.set(k, p);
  }

  private async loadPage(key: string, page: Hierarchy.Page): Promise<void> {
    this.pagesLoading.add(key);
    try {
      this.addPage(await this.source.loadPage(page, this.count));
      this.pages.delete(key);
    } finally {
      this.pagesLoading.delete(key);
    }
    this.ctx?.requestRender();
  }

  /** The node's cube in the scan's frame (the root cube halved `depth` times). */
  private cubeOf(key: string): { centre: Vector3; half: number } {
    const [d, x, y, z] = parseKey(key);
    const c = this.copc!.cube;
    const size = (c[3] - c[0]) / 2 ** d;
    const centre = new Vector3(c[0] + (x + 0.5) * size, c[1] + (y + 0.5) * size, c[2] + (z + 0.5) * size).sub(this.centre);
    return { centre, half: size / 2 };
  }

  /**
   * The nodes to hold for this camera: a walk from the root, the node of largest screen
   * error first, children of a node whose spacing spans more than MAX_ERROR_PX, within the
   * frustum, until the budget. Answers them in the order to fetch.
   */
  private select(frame: FrameInfo): string[] {
    const copc = this.copc!;
    const cam = frame.camera;
    cam.updateMatrixWorld();
    // The camera in the scan's frame (its pose is a rigid move: distances are kept).
    this.object.updateMatrixWorld();
    const toScan = this.object.matrixWorld;
    const frustum = new Frustum().setFromProjectionMatrix(new Matrix4().multiplyMatrices(cam.projectionMatrix, cam.matrixWorldInverse).multiply(toScan));
    // Pixels per metre at distance 1.
    const perMetre = frame.height / (2 * Math.tan((cam.fov * Math.PI) / 360));
    const eye = cam.getWorldPosition(new Vector3()).applyMatrix4(toScan.clone().invert());
    const queue: { key: string; error: number }[] = [];
    const errorOf = (key: string): number | null => {
      const { centre, half } = this.cubeOf(key);
      const radius = half * Math.sqrt(3); // the cube's half-diagonal
      if (!frustum.intersectsSphere(new Sphere(centre, radius))) return null;
      const distance = Math.max(eye.distanceTo(centre) - radius, 1e-3);
      const spacing = copc.spacing / 2 ** parseKey(key)[0];
      return (spacing / distance) * perMetre;
    };
    const rootError = this.nodes.has(ROOT) ? errorOf(ROOT) : null;
    if (rootError !== null) queue.push({ key: ROOT, error: rootError });
    const out: string[] = [];
    let points = 0;
    while (queue.length) {
      let best = 0;
      for (let i = 1; i < queue.length; i++) if (queue[i]!.error > queue[best]!.error) best = i;
      const { key, error } = queue.splice(best, 1)[0]!;
      const node = this.nodes.get(key)!;
      if (points + node.pointCount > this.budget) continue;
      points += node.pointCount;
      out.push(key);
      if (error <= MAX_ERROR_PX) continue;
      const [d, x, y, z] = parseKey(key);
      for (let i = 0; i < 8; i++) {
        const child = `${d + 1}-${2 * x + (i & 1)}-${2 * y + ((i >> 1) & 1)}-${2 * z + ((i >> 2) & 1)}`;
        const page = this.pages.get(child);
        if (page) {
          if (!this.pagesLoading.has(child)) void this.loadPage(child, page).catch((e: unknown) => !this.disposed && this.onError(e));
          continue;
        }
        const n = this.nodes.get(child);
        if (!n || n.pointCount <= 0) continue;
        const e = errorOf(child);
        if (e !== null) queue.push({ key: child, error: e });
      }
    }
    return out;
  }

  beforeRender(frame: FrameInfo): boolean {
    if (!this.copc || this.disposed) return false;
    this.wanted = this.select(frame);
    const wanted = new Set(this.wanted);
    let drawn = 0;
    for (const h of this.held.values()) {
      h.points.visible = wanted.has(h.key);
      if (h.points.visible) drawn += h.count;
    }
    const changed = drawn !== this.stats.pointsDrawn;
    this.stats.pointsDrawn = drawn;
    if (drawn > 0 && !this.stats.firstFrame) {
      this.stats.firstFrame = { requests: this.stats.requests, bytes: this.stats.bytes, ms: Math.round(performance.now() - this.started), points: drawn };
    }
    if (changed) this.onChange();
    this.fetchWanted();
    this.freeOverBudget(wanted);
    return false;
  }

  private fetchWanted(): void {
    // Until a node is held, the root (picked first) is fetched alone: the first frame then
    // waits for the header, the hierarchy page and the root only, not for children fetched
    // beside it (docs/point-clouds.md "First frame after the coarser root").
    const limit = this.held.size ? PARALLEL : 1;
    for (const key of this.wanted) {
      if (this.loading.size >= limit) return;
      if (this.held.has(key) || this.loading.has(key)) continue;
      this.loading.add(key);
      void this.loadNode(key)
        .catch((e: unknown) => !this.disposed && this.onError(e))
        .finally(() => {
          this.loading.delete(key);
          this.ctx?.requestRender();
        });
    }
  }

  /** Frees hidden nodes (those picked least recently first) while more than the budget is held. */
  private freeOverBudget(wanted: Set<string>): void {
    if (this.stats.pointsHeld <= this.budget) return;
    for (const h of [...this.held.values()].reverse()) {
      if (this.stats.pointsHeld <= this.budget) break;
      if (wanted.has(h.key)) continue;
      this.drop(h);
    }
  }

  private drop(h: HeldNode): void {
    this.object.remove(h.points);
    h.points.geometry.dispose();
    this.held.delete(h.key);
    this.stats.nodesHeld--;
    this.stats.pointsHeld -= h.count;
    this.onChange();
  }

  private async loadNode(key: string): Promise<void> {
    const node = this.nodes.get(key)!;
    const view = await this.source.loadNode(key, node, this.lazPerf!, this.count);
    if (this.disposed) return;
    const n = view.pointCount;
    const gx = view.getter('X');
    const gy = view.getter('Y');
    const gz = view.getter('Z');
    const gi = view.dimensions.Intensity ? view.getter('Intensity') : null;
    const rgbGetters = view.dimensions.Red ? [view.getter('Red'), view.getter('Green'), view.getter('Blue')] : null;
    const local = new Float32Array(n * 3);
    const z = new Float32Array(n);
    const intensity = new Uint16Array(n);
    let rgb16: Uint16Array | null = rgbGetters ? new Uint16Array(n * 3) : null;
    let maxRgb = 0;
    const { x: ox, y: oy, z: oz } = this.centre;
    for (let i = 0; i < n; i++) {
      local[i * 3] = gx(i) - ox;
      local[i * 3 + 1] = gy(i) - oy;
      const zi = gz(i);
      local[i * 3 + 2] = zi - oz;
      z[i] = zi;
      if (gi) intensity[i] = gi(i);
      if (rgbGetters && rgb16) {
        for (let c = 0; c < 3; c++) {
          const v = rgbGetters[c]!(i);
          rgb16[i * 3 + c] = v;
          if (v > maxRgb) maxRgb = v;
        }
      }
    }
    // LAS colour is 16-bit; some writers store 8-bit values unscaled.
    const shift = maxRgb > 255 ? 8 : 0;
    const rgb = rgb16 ? Uint8Array.from(rgb16, (v) => v >> shift) : null;
    rgb16 = null;
    const g = new BufferGeometry();
    g.setAttribute('position', new BufferAttribute(local, 3));
    const held: HeldNode = { key, points: new Points(g, this.material), count: n, z, intensity, rgb };
    g.setAttribute('color', new BufferAttribute(this.colours(held), 3, true));
    g.computeBoundingSphere();
    held.points.raycast = () => undefined;
    held.points.visible = this.wanted.includes(key);
    this.held.set(key, held);
    this.object.add(held.points);
    this.stats.nodesHeld++;
    this.stats.pointsHeld += n;
    this.onChange();
  }

  private colours(h: HeldNode): Uint8Array {
    if (this.mode === 'rgb' && h.rgb) return h.rgb;
    const out = new Uint8Array(h.count * 3);
    const [lo, hi] = this.zRange;
    for (let i = 0; i < h.count; i++) {
      if (this.mode === 'intensity') {
        const v = Math.round(40 + 215 * Math.sqrt(h.intensity[i]! / 65535));
        out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = v;
      } else {
        const t = Math.min(1, Math.max(0, (h.z[i]! - lo) / (hi - lo)));
        const [a, b, f] = t < 0.5 ? [ELEVATION_RAMP[0], ELEVATION_RAMP[1], t * 2] : [ELEVATION_RAMP[1], ELEVATION_RAMP[2], t * 2 - 1];
        for (let c = 0; c < 3; c++) out[i * 3 + c] = Math.round(a[c]! + (b[c]! - a[c]!) * f);
      }
    }
    return out;
  }

  getColourMode(): ColourMode {
    return this.mode;
  }

  /** Colours by the scan's RGB (when it has any), its intensity or its elevation. */
  setColourMode(mode: ColourMode): void {
    this.mode = mode;
    for (const h of this.held.values()) h.points.geometry.setAttribute('color', new BufferAttribute(this.colours(h), 3, true));
    this.ctx?.requestRender();
  }

  bounds(): Box3 | null {
    return this.box.isEmpty() ? null : this.box.clone().applyMatrix4(this.object.matrix);
  }

  dispose(): void {
    this.disposed = true;
    for (const h of this.held.values()) h.points.geometry.dispose();
    this.held.clear();
    this.material.dispose();
  }
}
