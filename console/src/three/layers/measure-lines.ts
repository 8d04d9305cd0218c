// Measurements as lines (layer.ts): each one's points (project coordinates) joined in order,
// closed for an area, and for a height the vertical leg drawn up from the first point to the
// second's height, then across to it; its points marked as dots. Drawn over everything (a
// measurement on a box's far side stays visible). A measurement with a key is pickable (a
// ray passing within a few pixels of its line or dots) and drawn in the selection's colour
// when selected. The zone's saved measurements are one such layer and the measuring tool's
// measurement in progress another (no key: not pickable).
import {
  Box3, BufferGeometry, Color, Float32BufferAttribute, Group, Line, LineBasicMaterial, LineLoop, Points, PointsMaterial, Sphere, Vector3,
  type Intersection, type Raycaster,
} from 'three';
import type { Hit, LayerContext, SceneLayer } from '../layer.ts';
import type { MeasureKind } from '../../geometry.ts';
import { HIGHLIGHT } from './tag-boxes.ts';
type P = { x: number; y: number; z: number };

export interface DrawnMeasurement {
  kind: MeasureKind;
  points: readonly P[];
  /** Its id in the layer's picks and selection; none: not pickable. */
  key?: string;
  /** What the hover label shows. */
  label?: string;
}

/** How near the ray must pass, in pixels at the measurement's distance (the canvas is taken as 800 px high). */
const PICK_PX = 6;

interface Drawn {
  measurement: DrawnMeasurement;
  objects: (Line | Points)[];
  bounds: Sphere;
}

/** The points a measurement's line passes through: a height goes up (or down) first, then across. */
export function linePath(m: DrawnMeasurement): P[] {
  if (m.kind === 'height' && m.points.length === 2) {
    const [a, b] = m.points as [P, P];
    return [a, { x: a.x, y: a.y, z: b.z }, b];
  }
  return [...m.points];
}

export class MeasureLinesLayer implements SceneLayer {
  readonly object = new Group();
  readonly marks = true;
  private measurements: readonly DrawnMeasurement[] = [];
  private ctx: LayerContext | null = null;
  private box = new Box3();
  private readonly lineMaterial: LineBasicMaterial;
  private readonly dotMaterial: PointsMaterial;
  private readonly selectedLine = new LineBasicMaterial({ color: HIGHLIGHT, depthTest: false, transparent: true });
  private readonly selectedDots = new PointsMaterial({ color: HIGHLIGHT, size: 9, sizeAttenuation: false, depthTest: false, transparent: true });
  /** The keyed measurements as drawn, by key. */
  private readonly drawn = new Map<string, Drawn>();
  private selected: string | null = null;

  readonly id: string;
  readonly label: string;
  /** False: the layer's extent does not count for "fit" (the tool's measurement in progress). */
  private readonly framed: boolean;

  constructor(id: string, label: string, colour: number, framed = true) {
    this.id = id;
    this.label = label;
    this.framed = framed;
    this.lineMaterial = new LineBasicMaterial({ color: new Color(colour), depthTest: false, transparent: true });
    this.dotMaterial = new PointsMaterial({ color: new Color(colour), size: 7, sizeAttenuation: false, depthTest: false, transparent: true });
  }

  attach(ctx: LayerContext): void {
    this.ctx = ctx;
    if (this.measurements.length) this.build();
  }

  setMeasurements(measurements: readonly DrawnMeasurement[]): void {
    this.measurements = measurements;
    if (this.ctx) this.build();
  }

  private build(): void {
    const ctx = this.ctx!;
    for (const o of [...this.object.children]) {
      this.object.remove(o);
      (o as Line | Points).geometry.dispose();
    }
    this.box.makeEmpty();
    this.drawn.clear();
    const all = this.measurements.flatMap((m) => m.points);
    if (all.length) {
      const world = new Box3();
      for (const p of all) world.expandByPoint(new Vector3(p.x, p.y, p.z));
      const origin = ctx.claimOrigin(world.getCenter(new Vector3()));
      const local = (ps: readonly P[]) => {
        const g = new BufferGeometry();
        g.setAttribute('position', new Float32BufferAttribute(ps.flatMap((p) => [p.x - origin.x, p.y - origin.y, p.z - origin.z]), 3));
        g.computeBoundingSphere();
        return g;
      };
      for (const m of this.measurements) {
        if (!m.points.length) continue;
        const chosen = m.key !== undefined && m.key === this.selected;
        const objects: (Line | Points)[] = [new Points(local(m.points), chosen ? this.selectedDots : this.dotMaterial)];
        if (m.points.length > 1) {
          const path = linePath(m);
          const material = chosen ? this.selectedLine : this.lineMaterial;
          objects.push(m.kind === 'area' && m.points.length > 2 ? new LineLoop(local(path), material) : new Line(local(path), material));
        }
        for (const o of objects) {
          o.renderOrder = 15;
          this.object.add(o);
        }
        const own = new Box3();
        for (const p of m.points) own.expandByPoint(new Vector3(p.x - origin.x, p.y - origin.y, p.z - origin.z));
        this.box.union(own);
        if (m.key !== undefined) this.drawn.set(m.key, { measurement: m, objects, bounds: own.getBoundingSphere(new Sphere()) });
      }
    }
    ctx.changed();
  }

  bounds(): Box3 | null {
    return !this.framed || this.box.isEmpty() ? null : this.box.clone();
  }

  /** The keyed measurement whose line or dots the ray passes nearest, within PICK_PX; drawn on top, so it wins over what is behind it (distance 0). */
  pick(ray: Raycaster): Hit | null {
    let best: { key: string; off: number } | null = null;
    const { Line: lineParams, Points: pointParams } = ray.params;
    const saved = [lineParams.threshold, pointParams?.threshold] as const;
    const fov = ray.camera && 'fov' in ray.camera ? (ray.camera.fov as number) : 50;
    try {
      for (const [key, d] of this.drawn) {
        // The pick distance in metres at this measurement's distance from the eye.
        const distance = Math.max(ray.ray.origin.distanceTo(d.bounds.center) - d.bounds.radius, 1e-3);
        const threshold = (2 * distance * Math.tan((fov * Math.PI) / 360) * PICK_PX) / 800;
        lineParams.threshold = threshold;
        if (pointParams) pointParams.threshold = threshold;
        const hits: Intersection[] = [];
        for (const o of d.objects) o.raycast(ray, hits);
        for (const h of hits) {
          const off = (h.distanceToRay ?? 0) / threshold;
          if (!best || off < best.off) best = { key, off };
        }
      }
    } finally {
      lineParams.threshold = saved[0];
      if (pointParams) pointParams.threshold = saved[1]!;
    }
    if (!best) return null;
    const m = this.drawn.get(best.key)!.measurement;
    return { layerId: this.id, key: best.key, label: m.label ?? m.kind, distance: 0 };
  }

  highlight(key: string | null): void {
    this.selected = key;
    for (const [k, d] of this.drawn) {
      for (const o of d.objects) {
        if (o instanceof Points) o.material = k === key ? this.selectedDots : this.dotMaterial;
        else o.material = k === key ? this.selectedLine : this.lineMaterial;
      }
    }
    this.ctx?.requestRender();
  }

  anchor(key: string): { centre: Vector3; radius: number } | null {
    const d = this.drawn.get(key);
    return d ? { centre: d.bounds.center.clone(), radius: Math.max(d.bounds.radius, 0.5) } : null;
  }

  dispose(): void {
    for (const o of this.object.children) (o as Line | Points).geometry.dispose();
    for (const m of [this.lineMaterial, this.dotMaterial, this.selectedLine, this.selectedDots]) m.dispose();
  }
}
