// The layer interface of the 3D view (docs/console.md "The 3D view: layers"). A zone's
// scene is a stack of layers: the tag lists' boxes, the scans' points, and what later work
// adds (annotations as pins, measurements, streamed point clouds through a level-of-detail
// loader). The view (view.ts) owns the renderer, the camera, navigation, picking, hover
// labels, selection and "fit"; a layer owns its objects and answers a few questions.
//
// Coordinates: data arrive in survey coordinates (float64, millions of metres). The view
// keeps one origin, claimed by the first layer that has data; every layer draws relative
// to it (float32 on the GPU keeps millimetres near the origin). Z is up.
import type { Box3, Object3D, PerspectiveCamera, Raycaster, Vector3 } from 'three';

/** What a layer is given when it is added to a view. */
/**
 * Points the view's streamed scans may hold together (about 40 MB of GPU buffers at 3 M), and
 * the toolbar's choices: a weak GPU draws less, a workstation more.
 */
export const VIEW_POINT_BUDGET = 3_000_000;
export const POINT_BUDGET_CHOICES = [1_000_000, 3_000_000, 6_000_000, 10_000_000] as const;

/** A file's pose (its translation and rotation; the vendor's File fields): a project point is R·p + t. */
export interface Pose {
  translation: { x: number; y: number; z: number } | null;
  rotation: { x: number; y: number; z: number; w: number } | null;
}

export interface LayerContext {
  /**
   * The survey coordinates of the view's local (0, 0, 0). The first call with a centre
   * fixes it for the view's life; later calls answer the same origin.
   */
  claimOrigin(centre: Vector3): Vector3;
  /** The origin if one was claimed. */
  origin(): Vector3 | null;
  /** Asks for a frame (the view renders on demand, never in a loop). */
  requestRender(): void;
  /** Tells the view that the layer's bounds changed (its content arrived or grew). */
  changed(): void;
}

/** An item under the pointer. */
export interface Hit {
  layerId: string;
  /** The item in its layer (a tag's index, a pin's id…), as the layer names it. */
  key: string;
  /** What a hover label shows. */
  label: string;
  /** Distance from the camera: the nearest hit of all layers wins. */
  distance: number;
}

/** Per-frame information for layers that load or simplify by distance (level of detail). */
export interface FrameInfo {
  camera: PerspectiveCamera;
  /** Canvas size in CSS pixels. */
  width: number;
  height: number;
}

/** How a scan's points are coloured: by its own RGB (where it has any), its intensity or its elevation. */
export type ColourMode = 'rgb' | 'intensity' | 'elevation';

export interface SceneLayer {
  /** Unique in its view: `tags:{tagListId}`, `scan:{fileId}`, `pins:…`. */
  readonly id: string;
  /** Shown in the layer list. */
  readonly label: string;
  /** The layer's objects, in the view's local frame; the view adds and removes it. */
  readonly object: Object3D;
  /** Called once when added; the layer keeps the context to claim the origin and ask for frames. */
  attach(ctx: LayerContext): void;
  /**
   * True for layers that mark places (annotation pins, measurements): a point placed by a
   * click in the scene lands on the other layers' surfaces (boxes, scans), never on a mark.
   */
  readonly marks?: boolean;
  /** Its extent in the local frame, or null while it holds nothing. */
  bounds(): Box3 | null;
  /** The nearest item hit by the ray (local frame), or null; absent: the layer is not pickable. */
  pick?(ray: Raycaster): Hit | null;
  /** Colours its points by the mode (layers of scans); absent: the layer has no points to colour. */
  setColourMode?(mode: ColourMode): void;
  /** Its share of the view's point budget (layers that stream points by level of detail). */
  setPointBudget?(points: number): void;
  /** Places its content by its file's pose (scans); absent: the layer is drawn where its coordinates say. */
  setPose?(pose: Pose | null): void;
  /** Marks one item as the selection (or none). */
  highlight?(key: string | null): void;
  /** Where an item is (local frame), for labels and "fit to selection". */
  anchor?(key: string): { centre: Vector3; radius: number } | null;
  /**
   * Before each frame: a layer that streams or simplifies by distance reads the camera here
   * and answers true when it wants another frame soon (data still arriving).
   */
  beforeRender?(frame: FrameInfo): boolean;
  dispose(): void;
}
