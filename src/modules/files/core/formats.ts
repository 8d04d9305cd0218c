// The format table (CONTRACT §7): extension → format id and category; the category of a
// file decides its permissions, its capacity and its API 2 shape. The vendor lists the
// categories and their extensions, not the numeric ids: ours are stable numbers, never
// reused. An extension not in the table is a `miscfile` of format 999 ("Other").

export const CATEGORIES = [
  'scan', 'model', 'geoImage', 'document', 'media', 'miscfile', 'archive', 'sitemap', 'modelReport', 'video3d', 'gaussian',
] as const;
export type Category = (typeof CATEGORIES)[number];
export const isCategory = (s: string): s is Category => (CATEGORIES as readonly string[]).includes(s);
/** A stored file's category; a value no longer known reads as `miscfile`. */
export const categoryOf = (f: { category: string }): Category => (isCategory(f.category) ? f.category : 'miscfile');

export interface Format {
  id: number;
  name: string;
  description: string;
  extension: string;
  category: Category;
  canBeUploaded: boolean;
}

export const CATEGORY_INFO: Record<Category, { name: string; description: string; icon: string; shareUrlType: string }> = {
  scan: { name: 'Scans', description: 'Laser scans and point clouds', icon: 'scan', shareUrlType: 'scan' },
  model: { name: '3D models', description: 'CAD and BIM models', icon: 'model', shareUrlType: 'model' },
  geoImage: { name: 'Geo images', description: 'Geo-referenced 360° images', icon: 'geo-image', shareUrlType: 'geoImage' },
  document: { name: 'Documents', description: 'Office documents, text and PDF files', icon: 'document', shareUrlType: 'file' },
  media: { name: 'Media', description: 'Images', icon: 'media', shareUrlType: 'file' },
  miscfile: { name: 'Other files', description: 'Any other type of file', icon: 'file', shareUrlType: 'file' },
  archive: { name: 'Archives', description: 'Compressed archives', icon: 'archive', shareUrlType: 'file' },
  sitemap: { name: 'Site maps', description: 'Site maps', icon: 'sitemap', shareUrlType: 'sitemap' },
  modelReport: { name: 'Model reports', description: 'Progress monitoring reports', icon: 'model-report', shareUrlType: 'modelReport' },
  video3d: { name: '360 videos', description: '360° videos', icon: 'video3d', shareUrlType: 'video3d' },
  gaussian: { name: 'Gaussian splats', description: 'Gaussian splatting files', icon: 'gaussian', shareUrlType: 'gaussian' },
};

const row = (id: number, extension: string, category: Category, name: string): Format => ({
  id, extension, category, name, description: `${name} (.${extension})`, canBeUploaded: true,
});

export const OTHER_FORMAT: Format = {
  id: 999, extension: '*', category: 'miscfile', name: 'Other', description: 'Any other file', canBeUploaded: true,
};

export const FORMATS: readonly Format[] = [
  row(1, 'e57', 'scan', 'ASTM E57'),
  row(2, 'fls', 'scan', 'FARO scan'),
  row(3, 'fws', 'scan', 'FARO workspace'),
  row(4, 'lsproj', 'scan', 'FARO SCENE project'),
  row(5, 'ptx', 'scan', 'Leica PTX'),
  row(6, 'pts', 'scan', 'Leica PTS'),
  row(7, 'las', 'scan', 'LAS point cloud'),
  row(8, 'laz', 'scan', 'LAZ point cloud'),
  row(9, 'rcp', 'scan', 'ReCap project'),
  row(10, 'rcs', 'scan', 'ReCap scan'),
  row(11, 'zfs', 'scan', 'Z+F scan'),
  row(12, 'x3a', 'scan', 'Trimble scan'),
  row(13, 'rdbx', 'scan', 'RIEGL scan'),
  row(20, 'ifc', 'model', 'IFC'),
  row(21, 'rvt', 'model', 'Revit'),
  row(22, 'dwg', 'model', 'AutoCAD DWG'),
  row(23, 'dxf', 'model', 'AutoCAD DXF'),
  row(24, '3ds', 'model', '3D Studio'),
  row(25, 'dae', 'model', 'COLLADA'),
  row(26, 'fbx', 'model', 'FBX'),
  row(27, 'obj', 'model', 'Wavefront OBJ'),
  row(28, 'nwd', 'model', 'Navisworks NWD'),
  row(29, 'nwc', 'model', 'Navisworks NWC'),
  row(30, 'step', 'model', 'STEP'),
  row(31, 'stp', 'model', 'STEP'),
  row(32, 'skp', 'model', 'SketchUp'),
  row(33, 'glb', 'model', 'glTF binary'),
  row(34, 'gltf', 'model', 'glTF'),
  row(40, 'idd', 'geoImage', 'IDD geo image'),
  row(41, '360', 'geoImage', '360° geo image'),
  row(50, 'pdf', 'document', 'PDF'),
  row(51, 'doc', 'document', 'Word'),
  row(52, 'docx', 'document', 'Word'),
  row(53, 'xls', 'document', 'Excel'),
  row(54, 'xlsx', 'document', 'Excel'),
  row(55, 'ppt', 'document', 'PowerPoint'),
  row(56, 'pptx', 'document', 'PowerPoint'),
  row(57, 'txt', 'document', 'Text'),
  row(58, 'rtf', 'document', 'Rich text'),
  row(59, 'odt', 'document', 'OpenDocument text'),
  row(60, 'pdt', 'document', 'PDT'),
  row(61, 'pub', 'document', 'Publisher'),
  row(62, 'csv', 'document', 'CSV'),
  row(70, 'png', 'media', 'PNG image'),
  row(71, 'jpg', 'media', 'JPEG image'),
  row(72, 'jpeg', 'media', 'JPEG image'),
  row(73, 'gif', 'media', 'GIF image'),
  row(74, 'bmp', 'media', 'Bitmap image'),
  row(75, 'tiff', 'media', 'TIFF image'),
  row(76, 'tif', 'media', 'TIFF image'),
  row(80, 'zip', 'archive', 'ZIP archive'),
  row(90, 'map', 'sitemap', 'Site map'),
  row(100, 'cipm', 'modelReport', 'Model report'),
  row(110, 'mp4', 'video3d', '360° video'),
  row(120, 'ply', 'gaussian', 'Gaussian splat (PLY)'),
  row(121, 'spz', 'gaussian', 'Gaussian splat (SPZ)'),
  OTHER_FORMAT,
];

const BY_EXTENSION = new Map(FORMATS.filter((f) => f !== OTHER_FORMAT).map((f) => [f.extension, f]));

/** The format of an extension (case-insensitive); unknown extensions are miscfiles. */
export function formatOf(extension: string): Format {
  return BY_EXTENSION.get(extension.toLowerCase()) ?? OTHER_FORMAT;
}
