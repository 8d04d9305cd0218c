// The meshexport module's setting (docs/mesh-export.md): the Python with Open3D that runs the mesher worker.
import type { ModuleSettings } from '../contract.ts';

export const meshexportSettings: ModuleSettings<{ meshPython: string }> = {
  rows: [
    {
      env: 'MESH_PYTHON',
      default: '`/usr/bin/python3`',
      does:
        'the Python that runs the export-to-mesh worker; it needs Open3D (Debian `python3-open3d`, installed by `npm run setup`). ' +
        'Without it, export to mesh answers 503 `mesher-unavailable` ([docs/mesh-export.md](docs/mesh-export.md))',
    },
  ],
  read: (env) => ({ meshPython: env.MESH_PYTHON || '/usr/bin/python3' }),
};
