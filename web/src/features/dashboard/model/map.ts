/**
 * The portfolio map's pure parts: the projection fitted to the points, and a
 * grid clustering in screen space (points closer than a cell merge into one
 * marker with their count and their worst light).
 */
import { geoMercator, type GeoProjection } from 'd3-geo';
import type { Light, MapPlace } from './types';

/** Europe, the product's countries, when there is nothing to fit. */
const DEFAULT_EXTENT: [[number, number], [number, number]] = [
  [-5, 42],
  [17, 55],
];

/** The ranking of lights: the worst wins a cluster. */
const RANK: Record<Light | '', number> = { '': 0, green: 1, yellow: 2, red: 3 };

/** The worse of two lights. */
export function worse(a: Light | '', b: Light | ''): Light | '' {
  return RANK[b] > RANK[a] ? b : a;
}

/**
 * A Mercator projection showing `points` (longitude, latitude) inside a
 * width × height box with `pad` pixels around; a single point or none gets
 * at least a country's worth of context.
 */
export function fitProjection(points: { lon: number; lat: number }[], width: number, height: number, pad = 24): GeoProjection {
  let [[w, s], [e, n]] = DEFAULT_EXTENT;
  if (points.length > 0) {
    w = Math.min(...points.map((p) => p.lon));
    e = Math.max(...points.map((p) => p.lon));
    s = Math.min(...points.map((p) => p.lat));
    n = Math.max(...points.map((p) => p.lat));
    // At least 2 degrees each way, so one shop shows its surroundings.
    const minSpan = 2;
    if (e - w < minSpan) [w, e] = [(w + e) / 2 - minSpan / 2, (w + e) / 2 + minSpan / 2];
    if (n - s < minSpan) [s, n] = [(s + n) / 2 - minSpan / 2, (s + n) / 2 + minSpan / 2];
  }
  const box = {
    type: 'MultiPoint' as const,
    coordinates: [
      [w, s],
      [e, n],
      [w, n],
      [e, s],
    ],
  };
  return geoMercator().fitExtent(
    [
      [pad, pad],
      [Math.max(pad + 1, width - pad), Math.max(pad + 1, height - pad)],
    ],
    box,
  );
}

/** A marker on the map: one place or a cluster of several; count is their points of sale. */
export interface Cluster {
  key: string;
  x: number;
  y: number;
  count: number;
  status: Light | '';
  points: MapPlace[];
}

/**
 * Groups projected places by a grid of `cell` pixels: each occupied cell
 * becomes one marker at the mean of its places weighted by their points of
 * sale, with their count and worst light. Places the projection cannot
 * place are left out.
 */
export function clusterPoints(points: MapPlace[], project: (p: [number, number]) => [number, number] | null, cell: number): Cluster[] {
  const cells = new Map<string, Cluster & { sx: number; sy: number }>();
  for (const p of points) {
    const xy = project([p.lon, p.lat]);
    if (!xy || !Number.isFinite(xy[0]) || !Number.isFinite(xy[1])) continue;
    const key = `${Math.floor(xy[0] / cell)}:${Math.floor(xy[1] / cell)}`;
    let c = cells.get(key);
    if (!c) {
      c = { key, x: 0, y: 0, sx: 0, sy: 0, count: 0, status: '', points: [] };
      cells.set(key, c);
    }
    c.sx += xy[0] * p.count;
    c.sy += xy[1] * p.count;
    c.count += p.count;
    c.status = worse(c.status, p.status);
    c.points.push(p);
  }
  return [...cells.values()].map(({ sx, sy, ...c }) => ({ ...c, x: sx / c.count, y: sy / c.count }));
}

/** The radius of a cluster marker: grows with the square root of its count. */
export function clusterRadius(count: number): number {
  return count <= 1 ? 6 : Math.min(28, 9 + 3 * Math.sqrt(count));
}
