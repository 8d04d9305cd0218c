// One icon set: Lucide (ISC), its vanilla package's icon data rendered by Preact (the
// `lucide-preact` binding pins Preact 10; the data is the same). Only the icons imported
// here reach the bundle. An icon is decoration: the control it sits in carries the name.
import {
  Axis3d, Box, ChevronRight, CircleAlert, CloudUpload, Copy, Crosshair, Download, Eye, EyeOff, File, FileText, Folder, FolderPlus,
  Footprints, Grid3x3, Image, Info, Layers, LogOut, Maximize, Move3d, Orbit, Pencil, Plus, RefreshCw, Sun, Moon, SunMoon, Tag, Tags,
  Trash, Users, Video, WifiOff, X, Check, CircleUser, Mail, ShieldAlert, TriangleAlert, Ruler, type IconNode,
} from 'lucide';

export const ICONS = {
  axes: Axis3d, box: Box, chevron: ChevronRight, alert: CircleAlert, upload: CloudUpload, copy: Copy, fit: Crosshair, download: Download,
  show: Eye, hide: EyeOff, file: File, document: FileText, folder: Folder, newZone: FolderPlus, walk: Footprints, grid: Grid3x3,
  image: Image, info: Info, layers: Layers, signOut: LogOut, maximize: Maximize, transform: Move3d, orbit: Orbit, rename: Pencil,
  add: Plus, retry: RefreshCw, light: Sun, dark: Moon, auto: SunMoon, tag: Tag, tags: Tags, remove: Trash, users: Users,
  video: Video, offline: WifiOff, close: X, ok: Check, user: CircleUser, mail: Mail, signOutEverywhere: ShieldAlert, warning: TriangleAlert,
  measure: Ruler,
} satisfies Record<string, IconNode>;

export type IconName = keyof typeof ICONS;

export function Icon(props: { name: IconName; size?: number; class?: string }) {
  const size = props.size ?? 18;
  return (
    <svg
      xmlns="http://www.w3.org/2000/svg"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      stroke-width="2"
      stroke-linecap="round"
      stroke-linejoin="round"
      aria-hidden="true"
      focusable="false"
      class={props.class ? `icon ${props.class}` : 'icon'}
    >
      {(ICONS[props.name] as IconNode).map(([tag, attrs], i) => {
        const Tag = tag as 'path';
        return <Tag key={i} {...(attrs as Record<string, string | number>)} />;
      })}
    </svg>
  );
}
