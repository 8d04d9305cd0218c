// A tag list's boxes as a layer (layer.ts): one InstancedMesh for all of them (50,000
// boxes are one draw call), axis-aligned boxes (boundingBox: minX, minY, minZ, maxX, maxY,
// maxZ) and oriented ones (orientedBoundingBox: centre x y z, quaternion x y z w, full
// sizes x y z; docs/tags.md). Coloured with the tag list's colour (the colour the tag
// lists show), else by class; the selected box is drawn in the highlight colour with its
// edges on top of everything, so it stays visible behind other boxes.
import {
  Box3, BufferAttribute, BufferGeometry, Color, EdgesGeometry, Group, InstancedMesh, LineBasicMaterial, LineSegments, Matrix4,
  MeshLambertMaterial, Quaternion, type Raycaster, Vector3,
} from 'three';
import type { TagData } from '../../types.ts';
import type { Hit, LayerContext, SceneLayer } from '../layer.ts';

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

/** A tag list's colour as the API gives it (`#rrggbb` or `rrggbb`), or null when it is not one. */
export function listColour(value: string | null | undefined): Color | null {
  const m = /^#?([0-9a-f]{6})$/i.exec(value ?? '');
  return m ? new Color(`#${m[1]}`) : null;
}

/** The selection's colour (a warm yellow, apart from every list colour's usual blues and greens). */
export const HIGHLIGHT = new Color(0xffb000);

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

/** A flat box (allowed by the rules) still gets a visible thickness. */
const MIN_SIZE = 1e-3;

export class TagBoxLayer implements SceneLayer {
  readonly object = new Group();
  /** The InstancedMesh of the boxes (null before setTags); read by the browser tests. */
  mesh: InstancedMesh | null = null;
  /** instanceId → index of the tag given to setTags. */
  instanceTag: Int32Array = new Int32Array(0);
  private tags: readonly TagData[] = [];
  private ctx: LayerContext | null = null;
  private box = new Box3();
  private colours: Color[] = [];
  private selected: number | null = null;
  private readonly outline: LineSegments;

  readonly id: string;
  label: string;
  /** The list's colour (`#rrggbb`); null colours by class. */
  private colour: string | null;

  constructor(id: string, label: string, colour: string | null = null) {
    this.id = id;
    this.label = label;
    this.colour = colour;
    const edges = new EdgesGeometry(unitCube());
    this.outline = new LineSegments(edges, new LineBasicMaterial({ color: HIGHLIGHT, depthTest: false, transparent: true }));
    this.outline.renderOrder = 10;
    this.outline.visible = false;
    this.outline.raycast = () => undefined;
    this.object.add(this.outline);
  }

  attach(ctx: LayerContext): void {
    this.ctx = ctx;
    if (this.tags.length) this.build();
  }

  /** The tags to draw (replacing any drawn before); answers how many have a box. */
  setTags(tags: readonly TagData[]): number {
    this.tags = tags;
    if (!this.ctx) return tags.filter((t) => boxOf(t) !== null).length;
    return this.build();
  }

  setColour(colour: string | null): void {
    this.colour = colour;
    if (this.ctx && this.tags.length) this.build();
  }

  private build(): number {
    const ctx = this.ctx!;
    if (this.mesh) {
      this.object.remove(this.mesh);
      this.mesh.geometry.dispose();
      this.mesh.dispose();
      this.mesh = null;
    }
    const boxes = this.tags.map(boxOf);
    const drawn = boxes.filter((b) => b !== null).length;
    this.box.makeEmpty();
    this.instanceTag = new Int32Array(drawn);
    this.colours = [];
    if (!drawn) {
      ctx.changed();
      return 0;
    }
    const centres = new Box3();
    for (const b of boxes) if (b) centres.expandByPoint(new Vector3(...b.center));
    const origin = ctx.claimOrigin(centres.getCenter(new Vector3()));
    const mesh = new InstancedMesh(unitCube(), new MeshLambertMaterial({ flatShading: true }), drawn);
    const fixed = listColour(this.colour);
    const m = new Matrix4();
    const p = new Vector3();
    const q = new Quaternion();
    const s = new Vector3();
    let i = 0;
    boxes.forEach((b, tagIndex) => {
      if (!b) return;
      p.set(b.center[0] - origin.x, b.center[1] - origin.y, b.center[2] - origin.z);
      q.set(...b.quaternion).normalize();
      s.set(Math.max(b.size[0], MIN_SIZE), Math.max(b.size[1], MIN_SIZE), Math.max(b.size[2], MIN_SIZE));
      m.compose(p, q, s);
      mesh.setMatrixAt(i, m);
      const c = fixed ?? colourOfClass(this.tags[tagIndex]!.class);
      this.colours.push(c);
      mesh.setColorAt(i, c);
      this.instanceTag[i] = tagIndex;
      const r = s.length() / 2;
      this.box.expandByPoint(p.clone().addScalar(-r)).expandByPoint(p.clone().addScalar(r));
      i++;
    });
    mesh.instanceMatrix.needsUpdate = true;
    if (mesh.instanceColor) mesh.instanceColor.needsUpdate = true;
    mesh.computeBoundingSphere();
    mesh.computeBoundingBox();
    this.mesh = mesh;
    this.object.add(mesh);
    const was = this.selected;
    this.selected = null;
    if (was !== null && was < this.tags.length) this.highlight(String(was));
    else this.outline.visible = false;
    ctx.changed();
    return drawn;
  }

  bounds(): Box3 | null {
    return this.box.isEmpty() ? null : this.box.clone();
  }

  pick(ray: Raycaster): Hit | null {
    if (!this.mesh || !this.object.visible) return null;
    const hit = ray.intersectObject(this.mesh, false)[0];
    if (hit?.instanceId === undefined) return null;
    const tagIndex = this.instanceTag[hit.instanceId]!;
    const t = this.tags[tagIndex]!;
    return { layerId: this.id, key: String(tagIndex), label: t.name ? `${t.name} (${t.id})` : t.id, distance: hit.distance };
  }

  private instanceOf(key: string | null): number {
    if (key === null || !this.mesh) return -1;
    return this.instanceTag.indexOf(Number(key));
  }

  highlight(key: string | null): void {
    if (!this.mesh) {
      this.selected = key === null ? null : Number(key);
      return;
    }
    const before = this.instanceOf(this.selected === null ? null : String(this.selected));
    if (before >= 0) this.mesh.setColorAt(before, this.colours[before]!);
    const at = this.instanceOf(key);
    this.selected = at >= 0 ? Number(key) : null;
    if (at >= 0) {
      this.mesh.setColorAt(at, HIGHLIGHT);
      const m = new Matrix4();
      this.mesh.getMatrixAt(at, m);
      m.decompose(this.outline.position, this.outline.quaternion, this.outline.scale);
      this.outline.visible = true;
    } else {
      this.outline.visible = false;
    }
    if (this.mesh.instanceColor) this.mesh.instanceColor.needsUpdate = true;
    this.ctx?.requestRender();
  }

  /** The colour an item is drawn with now (the highlight when selected): the browser tests read it back. */
  colourOf(key: string): Color | null {
    const at = this.instanceOf(key);
    if (at < 0 || !this.mesh) return null;
    const c = new Color();
    this.mesh.getColorAt(at, c);
    return c;
  }

  anchor(key: string): { centre: Vector3; radius: number } | null {
    const at = this.instanceOf(key);
    if (at < 0 || !this.mesh) return null;
    const m = new Matrix4();
    this.mesh.getMatrixAt(at, m);
    const centre = new Vector3();
    const scale = new Vector3();
    m.decompose(centre, new Quaternion(), scale);
    return { centre, radius: Math.max(scale.length() / 2, 0.25) };
  }

  dispose(): void {
    this.mesh?.geometry.dispose();
    this.mesh?.dispose();
    this.outline.geometry.dispose();
  }
}
