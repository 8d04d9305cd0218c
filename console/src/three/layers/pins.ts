// A zone's annotations as pins (layer.ts): one round marker per annotation at its position
// (project coordinates), a constant size on screen (a sprite without size attenuation),
// drawn over everything (so a pin inside a box stays visible and clickable), coloured by the
// annotation's type; the selected pin is drawn in the highlight colour and larger.
import { Box3, CanvasTexture, Color, Group, type Raycaster, Sprite, SpriteMaterial, type Texture, Vector3, type Intersection } from 'three';
import type { Hit, LayerContext, SceneLayer } from '../layer.ts';
import { HIGHLIGHT } from './tag-boxes.ts';

export interface Pin {
  /** The annotation's id: the pin's key in the view's selection. */
  key: string;
  label: string;
  type: string;
  position: { x: number; y: number; z: number };
}

/** Each type's colour: Note blue, Issue red, Resolved green, Private note (and any other) grey. */
export const PIN_COLOURS: Record<string, number> = { Note: 0x2f6fde, Issue: 0xd93b3b, Resolved: 0x2e9e5b };
const OTHER = 0x7a7f87;

/** A pin's size: a fraction of the view's height (sprites without size attenuation). */
const SIZE = 0.045;
const SELECTED_SIZE = 0.065;

/** A white disc with a dark rim, tinted by each pin's material colour. */
function discTexture(): Texture {
  const c = document.createElement('canvas');
  c.width = c.height = 64;
  const g = c.getContext('2d')!;
  g.beginPath();
  g.arc(32, 32, 28, 0, Math.PI * 2);
  g.fillStyle = '#ffffff';
  g.fill();
  g.lineWidth = 6;
  g.strokeStyle = 'rgba(0, 0, 0, 0.55)';
  g.stroke();
  return new CanvasTexture(c);
}

export class PinLayer implements SceneLayer {
  readonly object = new Group();
  readonly marks = true;
  private readonly texture = discTexture();
  private pins: readonly Pin[] = [];
  private readonly sprites = new Map<string, Sprite>();
  private ctx: LayerContext | null = null;
  private selected: string | null = null;
  private box = new Box3();

  readonly id: string;
  readonly label: string;

  constructor(id: string, label: string) {
    this.id = id;
    this.label = label;
  }

  attach(ctx: LayerContext): void {
    this.ctx = ctx;
    if (this.pins.length) this.build();
  }

  setPins(pins: readonly Pin[]): void {
    this.pins = pins;
    if (this.ctx) this.build();
  }

  private build(): void {
    const ctx = this.ctx!;
    for (const s of this.sprites.values()) {
      this.object.remove(s);
      s.material.dispose();
    }
    this.sprites.clear();
    this.box.makeEmpty();
    if (this.pins.length) {
      const all = new Box3();
      for (const p of this.pins) all.expandByPoint(new Vector3(p.position.x, p.position.y, p.position.z));
      const origin = ctx.claimOrigin(all.getCenter(new Vector3()));
      for (const p of this.pins) {
        const sprite = new Sprite(new SpriteMaterial({ map: this.texture, color: this.colourFor(p), depthTest: false, transparent: true, sizeAttenuation: false }));
        sprite.position.set(p.position.x - origin.x, p.position.y - origin.y, p.position.z - origin.z);
        sprite.scale.setScalar(p.key === this.selected ? SELECTED_SIZE : SIZE);
        sprite.renderOrder = 20;
        this.box.expandByPoint(sprite.position);
        this.sprites.set(p.key, sprite);
        this.object.add(sprite);
      }
    }
    ctx.changed();
  }

  private colourFor(p: Pin): Color {
    return p.key === this.selected ? HIGHLIGHT.clone() : new Color(PIN_COLOURS[p.type] ?? OTHER);
  }

  bounds(): Box3 | null {
    return this.box.isEmpty() ? null : this.box.clone();
  }

  /** The nearest pin under the ray; pins are drawn on top, so a pin wins over what is behind it (distance 0). */
  pick(ray: Raycaster): Hit | null {
    const hits: Intersection[] = [];
    for (const s of this.sprites.values()) s.raycast(ray, hits);
    if (!hits.length) return null;
    hits.sort((a, b) => a.distance - b.distance);
    const key = [...this.sprites].find(([, s]) => s === hits[0]!.object)![0];
    const pin = this.pins.find((p) => p.key === key)!;
    return { layerId: this.id, key, label: pin.label, distance: 0 };
  }

  highlight(key: string | null): void {
    const before = this.selected;
    this.selected = key;
    for (const k of [before, key]) {
      const sprite = k === null ? undefined : this.sprites.get(k);
      const pin = this.pins.find((p) => p.key === k);
      if (!sprite || !pin) continue;
      sprite.material.color.copy(this.colourFor(pin));
      sprite.scale.setScalar(k === key ? SELECTED_SIZE : SIZE);
    }
    this.ctx?.requestRender();
  }

  /** The colour a pin is drawn with now: the browser tests read it back. */
  colourOf(key: string): Color | null {
    return this.sprites.get(key)?.material.color.clone() ?? null;
  }

  anchor(key: string): { centre: Vector3; radius: number } | null {
    const s = this.sprites.get(key);
    return s ? { centre: s.position.clone(), radius: 1 } : null;
  }

  dispose(): void {
    for (const s of this.sprites.values()) s.material.dispose();
    this.texture.dispose();
  }
}
