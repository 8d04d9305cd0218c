// The 3D view of a work zone (docs/console.md "The 3D view"): one scene holding layers
// (layer.ts: tag lists' boxes, scans' points, and later pins, measurements, streamed
// clouds), a ground grid and axes at the origin, orbit/pan/zoom (OrbitControls: mouse,
// touch, keyboard) or first-person walking (drag to look, W A S D / arrows to move, Q E
// down and up), "fit" to everything or to the selection, a label for what is under the
// pointer, and one selection shared with the side panels. It renders on demand (camera
// moves, data arriving, a layer asking), never in an idle loop.
import {
  AmbientLight, AxesHelper, Box3, Color, DirectionalLight, GridHelper, type Intersection, Mesh, PerspectiveCamera, Plane, Points, Raycaster, Scene, Vector2, Vector3, WebGLRenderer,
} from 'three';
import { OrbitControls } from 'three/addons/controls/OrbitControls.js';
import { VIEW_POINT_BUDGET, type ColourMode, type Hit, type LayerContext, type SceneLayer } from './layer.ts';

export type Navigation = 'orbit' | 'walk';

export interface Selection {
  layerId: string;
  key: string;
}

export interface ViewEvents {
  /** A click picked an item (or nothing: null). */
  onPick?(hit: Hit | null): void;
  /** What is under the pointer, with where to show its label (canvas pixels), or null. */
  onHover?(hover: { hit: Hit; x: number; y: number } | null): void;
}

/** Keys of walking, and the direction each moves in (forward, right, up). */
const WALK_KEYS: Record<string, [number, number, number]> = {
  KeyW: [1, 0, 0], ArrowUp: [1, 0, 0], KeyS: [-1, 0, 0], ArrowDown: [-1, 0, 0],
  KeyA: [0, -1, 0], ArrowLeft: [0, -1, 0], KeyD: [0, 1, 0], ArrowRight: [0, 1, 0],
  KeyE: [0, 0, 1], KeyQ: [0, 0, -1],
};

export class ZoneView {
  readonly renderer: WebGLRenderer;
  readonly scene = new Scene();
  readonly camera = new PerspectiveCamera(50, 1, 0.01, 1e7);
  readonly controls: OrbitControls;
  private readonly layers = new Map<string, SceneLayer>();
  private originWorld: Vector3 | null = null;
  private grid = new GridHelper(1, 10);
  private readonly axes = new AxesHelper(1);
  private frame = 0;
  private moved = false;
  private colourMode: ColourMode = 'rgb';
  /** Points the scans streamed by level of detail may hold together (the toolbar's "Point budget"), shared equally among them. */
  private pointBudget = VIEW_POINT_BUDGET;
  private navigation: Navigation = 'orbit';
  private selection: Selection | null = null;
  private readonly resizeObserver: ResizeObserver;
  private readonly ray = new Raycaster();
  private hoverFrame = 0;
  private readonly pressed = new Set<string>();
  private walkLast = 0;
  private yaw = 0;
  private pitch = 0;
  private dragging: { x: number; y: number; moved: boolean } | null = null;
  /** While a tool takes points (placing an annotation, measuring), clicks go to it, not to picking. */
  private pointHandler: ((local: Vector3) => void) | null = null;
  private readonly cleanup: (() => void)[] = [];

  readonly canvas: HTMLCanvasElement;
  private readonly events: ViewEvents;

  constructor(canvas: HTMLCanvasElement, events: ViewEvents = {}) {
    this.canvas = canvas;
    this.events = events;
    // preserveDrawingBuffer: the picture can be read back (tests, snapshots).
    this.renderer = new WebGLRenderer({ canvas, antialias: true, preserveDrawingBuffer: true });
    this.renderer.setPixelRatio(Math.min(devicePixelRatio, 2));
    this.camera.up.set(0, 0, 1);
    this.camera.position.set(10, -12, 9);
    this.scene.add(new AmbientLight(0xffffff, 1.6));
    const sun = new DirectionalLight(0xffffff, 1.6);
    sun.position.set(0.5, 0.3, 1);
    this.scene.add(sun);
    // The grid lies on the ground (XY, Z up); the axes: X red, Y green, Z blue.
    this.grid.rotation.x = Math.PI / 2;
    this.grid.raycast = () => undefined;
    this.axes.raycast = () => undefined;
    this.scene.add(this.grid, this.axes);
    this.applyTheme();
    this.controls = new OrbitControls(this.camera, canvas);
    this.controls.listenToKeyEvents(canvas);
    this.controls.addEventListener('change', () => this.requestRender());
    this.controls.addEventListener('start', () => (this.moved = true));
    this.resizeObserver = new ResizeObserver(() => this.resize());
    this.resizeObserver.observe(canvas);
    this.listen();
    this.resize();
    this.fit();
  }

  // ---- layers -------------------------------------------------------------------------

  add(layer: SceneLayer): void {
    this.remove(layer.id);
    this.layers.set(layer.id, layer);
    this.scene.add(layer.object);
    const ctx: LayerContext = {
      claimOrigin: (centre) => {
        this.originWorld ??= centre.clone();
        return this.originWorld;
      },
      origin: () => this.originWorld,
      requestRender: () => this.requestRender(),
      changed: () => this.layerChanged(),
    };
    layer.attach(ctx);
    if (this.colourMode !== 'rgb') layer.setColourMode?.(this.colourMode);
    this.shareBudget();
    this.layerChanged();
  }

  /** The budget shared among the layers that take one, and what each holds now. */
  setPointBudget(points: number): void {
    this.pointBudget = points;
    this.shareBudget();
    this.requestRender();
  }

  getPointBudget(): number {
    return this.pointBudget;
  }

  private shareBudget(): void {
    const streaming = [...this.layers.values()].filter((l) => l.setPointBudget);
    for (const l of streaming) l.setPointBudget!(this.pointBudget / streaming.length);
  }

  /** Colours every scan's points by `mode`, and those of scans added later (the toolbar's "Colour by"). */
  setColourMode(mode: ColourMode): void {
    this.colourMode = mode;
    for (const l of this.layers.values()) l.setColourMode?.(mode);
    this.requestRender();
  }

  getColourMode(): ColourMode {
    return this.colourMode;
  }

  remove(id: string): void {
    const layer = this.layers.get(id);
    if (!layer) return;
    this.scene.remove(layer.object);
    layer.dispose();
    this.layers.delete(id);
    this.shareBudget();
    if (this.selection?.layerId === id) this.selection = null;
    this.requestRender();
  }

  layerIds(): string[] {
    return [...this.layers.keys()];
  }

  layer<T extends SceneLayer = SceneLayer>(id: string): T | undefined {
    return this.layers.get(id) as T | undefined;
  }

  setVisible(id: string, visible: boolean): void {
    const layer = this.layers.get(id);
    if (!layer) return;
    layer.object.visible = visible;
    this.requestRender();
  }

  /** The survey coordinates of the local origin (null until a layer had data). */
  origin(): Vector3 | null {
    return this.originWorld;
  }

  /** Until the user moves the camera, the view keeps everything framed as data arrive. */
  private layerChanged(): void {
    this.sizeHelpers();
    if (!this.moved) this.fit();
    else this.requestRender();
  }

  /** Everything drawn, in the local frame (empty when nothing is). */
  bounds(): Box3 {
    const all = new Box3();
    for (const l of this.layers.values()) {
      const b = l.object.visible ? l.bounds() : null;
      if (b) all.union(b);
    }
    return all;
  }

  /** Grid and axes sized to the content: a grid line every 1, 10 or 100 m… */
  private sizeHelpers(): void {
    const b = this.bounds();
    const size = b.isEmpty() ? 20 : Math.max(b.getSize(new Vector3()).length(), 2);
    const step = 10 ** Math.floor(Math.log10(size / 4));
    const span = Math.ceil((size * 1.5) / step) * step;
    this.grid.scale.setScalar(span);
    this.grid.position.set(0, 0, b.isEmpty() ? 0 : b.min.z);
    this.axes.scale.setScalar(Math.max(step, size / 8));
    this.axes.position.copy(this.grid.position);
    this.requestRender();
  }

  // ---- camera -------------------------------------------------------------------------

  /** Frames everything (or, with `selection`, that item). */
  fit(selection: Selection | null = null): void {
    let centre: Vector3;
    let radius: number;
    const anchor = selection ? this.layers.get(selection.layerId)?.anchor?.(selection.key) : null;
    if (anchor) {
      centre = anchor.centre;
      radius = anchor.radius * 3;
    } else {
      const b = this.bounds();
      if (b.isEmpty()) {
        centre = new Vector3();
        radius = 10;
      } else {
        centre = b.getCenter(new Vector3());
        radius = Math.max(b.getSize(new Vector3()).length() / 2, 0.5);
      }
    }
    const distance = radius / Math.sin((this.camera.fov * Math.PI) / 360);
    if (this.navigation === 'walk') this.setNavigation('orbit');
    this.controls.target.copy(centre);
    this.camera.position.copy(centre).add(new Vector3(1, -1.2, 0.9).normalize().multiplyScalar(distance * 1.1));
    this.camera.near = Math.max(distance / 1e4, 1e-3);
    this.camera.far = distance * 20;
    this.camera.updateProjectionMatrix();
    this.controls.update();
    this.requestRender();
  }

  getNavigation(): Navigation {
    return this.navigation;
  }

  /** Orbit around a target, or walk (first person: look by dragging, move with keys). */
  setNavigation(mode: Navigation): void {
    if (mode === this.navigation) return;
    this.navigation = mode;
    this.moved = true;
    const forward = new Vector3();
    this.camera.getWorldDirection(forward);
    if (mode === 'walk') {
      this.controls.enabled = false;
      this.yaw = Math.atan2(forward.y, forward.x);
      this.pitch = Math.asin(Math.max(-1, Math.min(1, forward.z)));
      this.canvas.focus();
    } else {
      const d = Math.max(this.camera.position.distanceTo(this.controls.target), 1);
      this.controls.target.copy(this.camera.position).addScaledVector(forward, d);
      this.controls.enabled = true;
      this.controls.update();
    }
    this.requestRender();
  }

  private look(): void {
    const f = new Vector3(Math.cos(this.pitch) * Math.cos(this.yaw), Math.cos(this.pitch) * Math.sin(this.yaw), Math.sin(this.pitch));
    this.camera.lookAt(this.camera.position.clone().add(f));
  }

  private walkStep = (now: number): void => {
    if (this.navigation !== 'walk' || !this.pressed.size) {
      this.walkLast = 0;
      return;
    }
    const dt = this.walkLast ? Math.min((now - this.walkLast) / 1000, 0.1) : 0;
    this.walkLast = now;
    const b = this.bounds();
    const speed = b.isEmpty() ? 2 : Math.max(b.getSize(new Vector3()).length() / 6, 0.5);
    const forward = new Vector3(Math.cos(this.yaw), Math.sin(this.yaw), 0);
    const right = new Vector3(Math.sin(this.yaw), -Math.cos(this.yaw), 0);
    const move = new Vector3();
    for (const k of this.pressed) {
      const [f, r, u] = WALK_KEYS[k]!;
      move.addScaledVector(forward, f).addScaledVector(right, r).add(new Vector3(0, 0, u));
    }
    this.camera.position.addScaledVector(move.normalize(), speed * dt);
    this.look();
    this.renderNow();
    requestAnimationFrame(this.walkStep);
  };

  // ---- selection, picking and hover ---------------------------------------------------

  /** Marks the item in its layer (and unmarks the previous one). */
  select(sel: Selection | null): void {
    const before = this.selection;
    if (before && (before.layerId !== sel?.layerId || before.key !== sel.key)) this.layers.get(before.layerId)?.highlight?.(null);
    this.selection = sel;
    if (sel) this.layers.get(sel.layerId)?.highlight?.(sel.key);
    this.requestRender();
  }

  getSelection(): Selection | null {
    return this.selection;
  }

  /** The nearest item under a point of the canvas (client coordinates), or null. */
  pickAt(clientX: number, clientY: number): Hit | null {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.ray.setFromCamera(ndc, this.camera);
    let best: Hit | null = null;
    for (const l of this.layers.values()) {
      if (!l.object.visible || !l.pick) continue;
      const hit = l.pick(this.ray);
      if (hit && (!best || hit.distance < best.distance)) best = hit;
    }
    return best;
  }

  /**
   * The point a click at (clientX, clientY) lands on, in the local frame: the nearest surface
   * of a drawn box or scan (layers that are not marks), else the ground plane (the grid's
   * height), else null (the ray misses the ground: looking up).
   */
  pointAt(clientX: number, clientY: number): Vector3 | null {
    const r = this.canvas.getBoundingClientRect();
    const ndc = new Vector2(((clientX - r.left) / r.width) * 2 - 1, -((clientY - r.top) / r.height) * 2 + 1);
    this.ray.setFromCamera(ndc, this.camera);
    // Scan points are hit within a small distance of the ray: 1/300 of the scene's size.
    const b = this.bounds();
    this.ray.params.Points.threshold = b.isEmpty() ? 0.05 : Math.max(b.getSize(new Vector3()).length() / 300, 0.01);
    const hits: Intersection[] = [];
    for (const l of this.layers.values()) {
      if (!l.object.visible || l.marks) continue;
      // Scan layers switch their points' raycast off (hover picks boxes only): the points'
      // own raycast is called here, for a click that places a point.
      l.object.traverseVisible((o) => {
        if (o instanceof Points) Points.prototype.raycast.call(o, this.ray, hits);
        else if (o instanceof Mesh) o.raycast(this.ray, hits);
      });
    }
    const nearest = hits.reduce<Intersection | null>((a, h) => (!a || h.distance < a.distance ? h : a), null);
    if (nearest) return nearest.point.clone();
    const ground = new Plane(new Vector3(0, 0, 1), -this.grid.position.z);
    return this.ray.ray.intersectPlane(ground, new Vector3());
  }

  /** Local frame → project coordinates (the origin added back). */
  toProject(local: Vector3): { x: number; y: number; z: number } {
    const o = this.originWorld ?? new Vector3();
    return { x: local.x + o.x, y: local.y + o.y, z: local.z + o.z };
  }

  /** Clicks deliver points (local frame) to `handler` until it is released (no picking meanwhile). */
  setPointHandler(handler: (local: Vector3) => void): void {
    this.pointHandler = handler;
    this.canvas.style.cursor = 'crosshair';
  }

  /** Clicks pick again, unless another tool took the clicks since `handler` did. */
  releasePointHandler(handler: (local: Vector3) => void): void {
    if (this.pointHandler !== handler) return;
    this.pointHandler = null;
    this.canvas.style.cursor = '';
  }

  /** Where an item's centre appears on the canvas (client coordinates), or null. */
  screenPointOf(layerId: string, key: string): { x: number; y: number } | null {
    const a = this.layers.get(layerId)?.anchor?.(key);
    if (!a) return null;
    const v = a.centre.clone().project(this.camera);
    const r = this.canvas.getBoundingClientRect();
    return { x: r.left + ((v.x + 1) / 2) * r.width, y: r.top + ((1 - v.y) / 2) * r.height };
  }

  private listen(): void {
    const c = this.canvas;
    const on = <K extends keyof HTMLElementEventMap>(type: K, f: (e: HTMLElementEventMap[K]) => void) => {
      c.addEventListener(type, f);
      this.cleanup.push(() => c.removeEventListener(type, f));
    };
    on('pointerdown', (e) => {
      this.dragging = { x: e.clientX, y: e.clientY, moved: false };
      if (this.navigation === 'walk') c.setPointerCapture(e.pointerId);
    });
    on('pointermove', (e) => {
      const d = this.dragging;
      if (d) {
        if (Math.abs(e.clientX - d.x) + Math.abs(e.clientY - d.y) > 4) d.moved = true;
        if (this.navigation === 'walk' && d.moved) {
          this.yaw -= e.movementX * 0.004;
          this.pitch = Math.max(-1.5, Math.min(1.5, this.pitch - e.movementY * 0.004));
          this.look();
          this.requestRender();
        }
        return;
      }
      this.hover(e.clientX, e.clientY);
    });
    on('pointerup', (e) => {
      const d = this.dragging;
      this.dragging = null;
      if (!d || d.moved) return;
      if (this.pointHandler) {
        const p = this.pointAt(e.clientX, e.clientY);
        if (p) this.pointHandler(p);
      } else this.events.onPick?.(this.pickAt(e.clientX, e.clientY));
    });
    on('pointerleave', () => {
      cancelAnimationFrame(this.hoverFrame);
      this.events.onHover?.(null);
    });
    on('keydown', (e) => {
      if (this.navigation !== 'walk' || !(e.code in WALK_KEYS)) return;
      e.preventDefault();
      const first = !this.pressed.size;
      this.pressed.add(e.code);
      if (first) requestAnimationFrame(this.walkStep);
    });
    on('keyup', (e) => this.pressed.delete(e.code));
    on('blur', () => this.pressed.clear());
  }

  /** At most one pick per frame while the pointer moves. */
  private hover(clientX: number, clientY: number): void {
    if (!this.events.onHover) return;
    cancelAnimationFrame(this.hoverFrame);
    this.hoverFrame = requestAnimationFrame(() => {
      const hit = this.pickAt(clientX, clientY);
      const r = this.canvas.getBoundingClientRect();
      this.events.onHover?.(hit ? { hit, x: clientX - r.left, y: clientY - r.top } : null);
    });
  }

  // ---- drawing ------------------------------------------------------------------------

  /** The background, grid and axes follow the page's theme (light or dark: styles.css). */
  applyTheme(): void {
    const css = getComputedStyle(this.canvas);
    const bg = css.getPropertyValue('--scene-bg').trim() || '#eef1f4';
    const line = css.getPropertyValue('--scene-grid').trim() || '#c3cbd3';
    this.scene.background = new Color(bg);
    // GridHelper bakes its colours into the geometry: a new grid in the theme's colours.
    const old = this.grid;
    // The centre lines stand out: darker on a light background, lighter on a dark one.
    const darkBg = new Color(bg).getHSL({ h: 0, s: 0, l: 0 }).l < 0.5;
    const grid = new GridHelper(1, 10, new Color(line).offsetHSL(0, 0, darkBg ? 0.15 : -0.15), new Color(line));
    grid.rotation.copy(old.rotation);
    grid.position.copy(old.position);
    grid.scale.copy(old.scale);
    grid.visible = old.visible;
    grid.raycast = () => undefined;
    this.scene.remove(old);
    old.geometry.dispose();
    (Array.isArray(old.material) ? old.material : [old.material]).forEach((m) => m.dispose());
    this.grid = grid;
    this.scene.add(grid);
    this.requestRender();
  }

  setHelpersVisible(visible: boolean): void {
    this.grid.visible = visible;
    this.axes.visible = visible;
    this.requestRender();
  }

  requestRender(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.renderNow();
    });
  }

  /** Renders now (the benchmark times frames with it). */
  renderNow(): void {
    let again = false;
    const r = this.canvas.getBoundingClientRect();
    for (const l of this.layers.values()) if (l.beforeRender?.({ camera: this.camera, width: r.width, height: r.height })) again = true;
    this.renderer.render(this.scene, this.camera);
    if (again) this.requestRender();
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
    cancelAnimationFrame(this.hoverFrame);
    for (const f of this.cleanup) f();
    this.resizeObserver.disconnect();
    this.controls.dispose();
    for (const l of this.layers.values()) l.dispose();
    this.renderer.dispose();
  }
}
