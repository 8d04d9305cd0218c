// Measurements as lines (layer.ts): each one's points (project coordinates) joined in order,
// closed for an area, and for a height the vertical leg drawn up from the first point to the
// second's height, then across to it; its points marked as dots. Drawn over everything (a
// measurement on a box's far side stays visible); not pickable. The zone's saved
// measurements are one such layer and the measuring tool's measurement in progress another.
import { Box3, BufferGeometry, Color, Float32BufferAttribute, Group, Line, LineBasicMaterial, LineLoop, Points, PointsMaterial, Vector3 } from 'three';
import type { LayerContext, SceneLayer } from '../layer.ts';
import type { MeasureKind } from '../../geometry.ts';
type P = { x: number; y: number; z: number };

export interface DrawnMeasurement {
  kind: MeasureKind;
  points: readonly P[];
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

  constructor(
    readonly id: string,
    readonly label: string,
    colour: number,
    /** False: the layer's extent does not count for "fit" (the tool's measurement in progress). */
    private readonly framed = true,
  ) {
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
        const dots = new Points(local(m.points), this.dotMaterial);
        dots.renderOrder = 15;
        this.object.add(dots);
        if (m.points.length > 1) {
          const path = linePath(m);
          const line = m.kind === 'area' && m.points.length > 2 ? new LineLoop(local(path), this.lineMaterial) : new Line(local(path), this.lineMaterial);
          line.renderOrder = 15;
          this.object.add(line);
        }
        for (const p of m.points) this.box.expandByPoint(new Vector3(p.x - origin.x, p.y - origin.y, p.z - origin.z));
      }
    }
    ctx.changed();
  }

  bounds(): Box3 | null {
    return !this.framed || this.box.isEmpty() ? null : this.box.clone();
  }

  dispose(): void {
    for (const o of this.object.children) (o as Line | Points).geometry.dispose();
    this.lineMaterial.dispose();
    this.dotMaterial.dispose();
  }
}
