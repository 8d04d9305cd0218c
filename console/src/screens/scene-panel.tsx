// The 3D view on a screen: the canvas filling its panel, the view's toolbar (fit to
// everything or to the selection, orbit or walk, grid and axes, and once points are drawn
// the scans' colour mode: RGB, intensity or elevation, and the point budget the streamed
// scans share), the label of what is under
// the pointer, and an overlay slot (the selection's card) drawn over the scene, so that
// selecting never moves the page (docs/console.md "No page jumps").
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ZoneView, type Navigation } from '../three/view.ts';
import { POINT_BUDGET_CHOICES, VIEW_POINT_BUDGET, type ColourMode, type Hit } from '../three/layer.ts';
import { IconButton } from '../ui.tsx';
import { onThemeChange } from '../theme.ts';

export function ScenePanel(props: {
  /** The view once made (and null when it goes). */
  onView: (view: ZoneView | null) => void;
  onPick: (hit: Hit | null) => void;
  /** Items drawn, for the canvas's description (and the tests). */
  drawn: number;
  points: number;
  label: string;
  /** More tools at the toolbar's end (the measuring tool's button). */
  tools?: ComponentChildren;
  children?: ComponentChildren;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [view, setView] = useState<ZoneView | null>(null);
  const [hover, setHover] = useState<{ hit: Hit; x: number; y: number } | null>(null);
  const [mode, setMode] = useState<Navigation>('orbit');
  const [helpers, setHelpers] = useState(true);
  const [colour, setColour] = useState<ColourMode>('rgb');
  const [budget, setBudget] = useState<number>(VIEW_POINT_BUDGET);
  // The points' controls appear with the first points and stay: a scan replaced by its COPC
  // draws nothing for a frame, and the toolbar must not fold and unfold then (no layout shift).
  const [hadPoints, setHadPoints] = useState(false);
  useEffect(() => {
    if (props.points > 0) setHadPoints(true);
  }, [props.points > 0]);
  const pick = useRef(props.onPick);
  pick.current = props.onPick;

  useEffect(() => {
    const v = new ZoneView(canvas.current!, { onPick: (h) => pick.current(h), onHover: setHover });
    setView(v);
    props.onView(v);
    const off = onThemeChange(() => v.applyTheme());
    return () => {
      off();
      props.onView(null);
      v.dispose();
    };
  }, []);

  const switchMode = (m: Navigation) => {
    view?.setNavigation(m);
    setMode(m);
  };
  return (
    <div class="scene-panel">
      <div class="scene-tools" role="toolbar" aria-label="3D view">
        <IconButton icon="fit" label="Fit to view" onClick={() => view?.fit()} />
        <IconButton icon="maximize" label="Fit to selection" onClick={() => view?.fit(view.getSelection())} />
        <IconButton icon="orbit" label="Orbit" pressed={mode === 'orbit'} onClick={() => switchMode('orbit')} />
        <IconButton icon="walk" label="Walk (W A S D, Q E; drag to look)" pressed={mode === 'walk'} onClick={() => switchMode('walk')} />
        <IconButton
          icon="grid"
          label="Grid and axes"
          pressed={helpers}
          onClick={() => {
            view?.setHelpersVisible(!helpers);
            setHelpers(!helpers);
          }}
        />
        {hadPoints ? (
          <select
            class="scene-colour"
            aria-label="Colour points by"
            value={colour}
            onChange={(e) => {
              const mode = e.currentTarget.value as ColourMode;
              view?.setColourMode(mode);
              setColour(mode);
            }}
          >
            <option value="rgb">Colour: the scan's RGB</option>
            <option value="intensity">Colour: intensity</option>
            <option value="elevation">Colour: elevation</option>
          </select>
        ) : null}
        {hadPoints ? (
          <select
            class="scene-colour"
            aria-label="Point budget"
            title="Points the scans streamed by level of detail may hold together"
            value={budget}
            onChange={(e) => {
              const points = Number(e.currentTarget.value);
              view?.setPointBudget(points);
              setBudget(points);
            }}
          >
            {POINT_BUDGET_CHOICES.map((n) => (
              <option key={n} value={n}>
                Points: {n / 1e6} M
              </option>
            ))}
          </select>
        ) : null}
        {props.tools}
      </div>
      <canvas
        ref={canvas}
        class="scene"
        tabIndex={0}
        data-drawn={props.drawn}
        data-points={props.points}
        aria-label={`${props.label}: drag to orbit, wheel to zoom, right-drag to pan, click an item to select it`}
      />
      {hover ? (
        <div class="scene-label" ref={(el) => {
            if (el) el.style.transform = `translate(${Math.round(hover.x + 12)}px, ${Math.round(hover.y + 12)}px)`;
          }}>
          {hover.hit.label}
        </div>
      ) : null}
      {props.children}
    </div>
  );
}
