// CopcNodes over the point-cloud library: the hierarchy read with copc.js (the COPC authors'
// reader, the console's loader), the verdicts and the boundary filter of box-filter.ts.
import { Copc } from 'copc';
import { filterChunkToBox, nodeVerdict } from '../../../pointclouds/index.ts';
import type { CopcLayout, CopcNodeEntry, CopcNodes } from '../core/ports.ts';

const triple = (v: readonly number[]): [number, number, number] => [v[0]!, v[1]!, v[2]!];

function keyOf(key: string) {
  const [d, x, y, z] = key.split('-').map(Number) as [number, number, number, number];
  return { d, x, y, z };
}

export function copcNodes(): CopcNodes {
  return {
    async layout(read) {
      const getter = async (begin: number, end: number) => read(begin, end);
      const copc = await Copc.create(getter);
      const format = copc.header.pointDataRecordFormat;
      if (format !== 6 && format !== 7) throw new Error(`COPC point format ${format}: the converter writes 6 and 7 only`);
      const nodes = new Map<string, CopcNodeEntry>();
      const pages = [copc.info.rootHierarchyPage];
      for (let page = pages.pop(); page; page = pages.pop()) {
        const sub = await Copc.loadHierarchyPage(getter, page);
        for (const [key, node] of Object.entries(sub.nodes)) {
          if (node) nodes.set(key, { pointCount: node.pointCount, offset: node.pointDataOffset, length: node.pointDataLength });
        }
        for (const p of Object.values(sub.pages)) if (p) pages.push(p);
      }
      const [x0, y0, z0, x1] = copc.info.cube;
      return {
        pointFormat: format,
        scale: triple(copc.header.scale),
        offset: triple(copc.header.offset),
        cube: { min: [x0, y0, z0], size: x1 - x0 },
        spacing: copc.info.spacing,
        nodes,
      } satisfies CopcLayout;
    },

    verdict: (layout, key, box) => nodeVerdict(layout.cube, keyOf(key), box),

    filter: (layout, chunk, pointCount, box) => filterChunkToBox(chunk, pointCount, layout.pointFormat, { scale: layout.scale, offset: layout.offset }, box),
  };
}
