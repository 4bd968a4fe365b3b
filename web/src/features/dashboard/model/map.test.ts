import { describe, expect, it } from 'vitest';
import { clusterPoints, clusterRadius, fitProjection, worse } from './map';
import type { MapPlace } from './types';

const point = (id: number, lat: number, lon: number, status: MapPlace['status'] = 'green', count = 1): MapPlace => ({
  key: `DE-${id}`,
  ...(count === 1 ? { pos_id: id, name: `Shop ${id}` } : {}),
  lat,
  lon,
  status,
  count,
});

describe('fitProjection', () => {
  it('puts every point inside the box', () => {
    const pts = [point(1, 52.52, 13.4), point(2, 48.85, 2.35), point(3, 47.37, 8.54), point(4, 48.21, 16.37)];
    const p = fitProjection(pts, 800, 400, 20);
    for (const x of pts) {
      const [px, py] = p([x.lon, x.lat])!;
      expect(px).toBeGreaterThanOrEqual(19);
      expect(px).toBeLessThanOrEqual(781);
      expect(py).toBeGreaterThanOrEqual(19);
      expect(py).toBeLessThanOrEqual(381);
    }
    // North is up, east is right.
    expect(p([13.4, 52.52])![1]).toBeLessThan(p([8.54, 47.37])![1]);
    expect(p([13.4, 52.52])![0]).toBeGreaterThan(p([2.35, 48.85])![0]);
  });

  it('shows a single point in the middle with its surroundings', () => {
    const p = fitProjection([point(1, 50, 8)], 600, 400, 0);
    const [x, y] = p([8, 50])!;
    expect(x).toBeCloseTo(300, 0);
    // Mercator stretches northwards: the middle latitude sits a little below the centre.
    expect(Math.abs(y - 200)).toBeLessThan(10);
    // One degree is not the whole box.
    expect(Math.abs(p([9, 50])![0] - x)).toBeLessThan(300);
  });

  it('shows Europe when there are no points', () => {
    const p = fitProjection([], 600, 400, 0);
    const [x, y] = p([10, 50])!;
    expect(x).toBeGreaterThan(0);
    expect(x).toBeLessThan(600);
    expect(y).toBeGreaterThan(0);
    expect(y).toBeLessThan(400);
  });
});

describe('clusterPoints', () => {
  const identity = (p: [number, number]) => p;

  it('merges points of one cell with their count, mean and worst light', () => {
    const clusters = clusterPoints(
      [point(1, 5, 5, 'green'), point(2, 15, 15, 'red'), point(3, 35, 35, 'yellow'), point(4, 8, 2, '')],
      identity,
      20,
    );
    expect(clusters).toHaveLength(2);
    const big = clusters.find((c) => c.count === 3)!;
    expect(big.status).toBe('red');
    expect(big.x).toBeCloseTo((5 + 15 + 2) / 3);
    expect(big.y).toBeCloseTo((5 + 15 + 8) / 3);
    expect(big.points.map((p) => p.pos_id).sort()).toEqual([1, 2, 4]);
    const single = clusters.find((c) => c.count === 1)!;
    expect(single.status).toBe('yellow');
    expect(single.points[0].pos_id).toBe(3);
  });

  it('weighs a place by its points of sale', () => {
    const [c] = clusterPoints([point(1, 0, 0, 'green', 3), point(2, 4, 4, 'yellow', 1)], identity, 20);
    expect(c.count).toBe(4);
    expect(c.points).toHaveLength(2);
    expect(c.x).toBeCloseTo(1);
    expect(c.status).toBe('yellow');
  });

  it('keeps apart what a smaller cell separates and skips unplaceable points', () => {
    const pts = [point(1, 5, 5), point(2, 15, 15)];
    expect(clusterPoints(pts, identity, 8)).toHaveLength(2);
    expect(clusterPoints(pts, () => null, 8)).toHaveLength(0);
  });
});

describe('worse and clusterRadius', () => {
  it('ranks red over yellow over green over none', () => {
    expect(worse('green', 'yellow')).toBe('yellow');
    expect(worse('red', 'yellow')).toBe('red');
    expect(worse('', 'green')).toBe('green');
    expect(worse('yellow', '')).toBe('yellow');
  });
  it('grows with the count and stays bounded', () => {
    expect(clusterRadius(1)).toBeLessThan(clusterRadius(2));
    expect(clusterRadius(10)).toBeLessThan(clusterRadius(100));
    expect(clusterRadius(1_000_000)).toBe(28);
  });
});
