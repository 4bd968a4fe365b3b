import { ActionIcon, Anchor, Box, Card, Group, Loader, Modal, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useElementSize } from '@mantine/hooks';
import { IconZoomReset } from '@tabler/icons-react';
import { geoPath } from 'd3-geo';
import type { FeatureCollection, Geometry } from 'geojson';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { useDashboardMap, useMapPlace } from '../api/dashboard';
import { clusterPoints, clusterRadius, fitProjection, type Cluster } from '../model/map';
import type { Light, MapPlace } from '../model/types';

const HEIGHT = 420;
/** Markers closer than this many pixels merge into a cluster. */
const CELL = 36;

/** The fill of a light; the marker outline keeps it visible on both skins. */
const FILL: Record<Light | '', string> = {
  red: 'var(--mantine-color-red-6)',
  yellow: 'var(--mantine-color-yellow-5)',
  green: 'var(--mantine-color-teal-6)',
  '': 'var(--mantine-color-gray-5)',
};

type Countries = FeatureCollection<Geometry>;

/** The Natural Earth country outlines (world-atlas, 1:110m: a small download; the 1:50m outlines weigh 750 kB), loaded with the map only. */
function useCountries(): Countries | null {
  const [countries, setCountries] = useState<Countries | null>(null);
  useEffect(() => {
    let live = true;
    void import('world-atlas/countries-110m.json').then((m) => {
      const topology = (m.default ?? m) as unknown as Topology<{ countries: GeometryCollection }>;
      if (live) setCountries(feature(topology, topology.objects.countries) as Countries);
    });
    return () => {
      live = false;
    };
  }, []);
  return countries;
}

/**
 * The portfolio map of the dashboard home: the caller's points of sale placed
 * by their postal codes on country outlines drawn in the browser, coloured by
 * the light of their next notice date, clustered when dense. A point opens
 * its point of sale, a place of several lists them, a cluster of places
 * zooms in on them.
 */
export function PortfolioMap() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const map = useDashboardMap();
  const countries = useCountries();
  const { ref, width } = useElementSize();
  const [focus, setFocus] = useState<MapPlace[] | null>(null);
  const [place, setPlace] = useState<MapPlace | null>(null);
  const points = map.data?.places;

  const projection = useMemo(() => fitProjection(focus ?? points ?? [], Math.max(width, 1), HEIGHT), [focus, points, width]);
  const outlines = useMemo(() => {
    if (!countries || width === 0) return [];
    const path = geoPath(projection);
    return countries.features.map((f, i) => ({ key: String(f.id ?? i), d: path(f) ?? '' }));
  }, [countries, projection, width]);
  const clusters = useMemo(
    () => (points && width > 0 ? clusterPoints(points, (p) => projection(p), CELL) : []),
    [points, projection, width],
  );
  const visible = (c: Cluster) => c.x >= -30 && c.y >= -30 && c.x <= width + 30 && c.y <= HEIGHT + 30;

  const open = (c: Cluster) => {
    if (c.points.length > 1) setFocus(c.points);
    else if (c.count > 1) setPlace(c.points[0]);
    else void navigate(`/app/table/pos/view/${c.points[0].pos_id}`);
  };
  const labelOf = (c: Cluster) => {
    if (c.points.length > 1) return t('dashboard.map_cluster', { count: c.count });
    if (c.count > 1) return t('dashboard.map_place', { count: c.count, place: c.points[0].key });
    return c.points[0].name ?? '';
  };

  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <div>
          <Title order={2} fz="lg">
            {t('dashboard.map_title')}
          </Title>
          {map.data && (
            <Text size="sm" c="dimmed">
              {t('dashboard.map_counts', { placed: map.data.placed, unplaced: map.data.unplaced })}
            </Text>
          )}
        </div>
        <Group gap="sm">
          {(['red', 'yellow', 'green', ''] as const).map((l) => (
            <Group key={l || 'none'} gap={4}>
              <Box w={10} h={10} style={{ borderRadius: '50%', background: FILL[l] }} />
              <Text size="xs">{t(`dashboard.light_${l || 'none'}`)}</Text>
            </Group>
          ))}
          {focus && (
            <Tooltip label={t('dashboard.map_reset')}>
              <ActionIcon variant="default" aria-label={t('dashboard.map_reset')} onClick={() => setFocus(null)}>
                <IconZoomReset size={16} />
              </ActionIcon>
            </Tooltip>
          )}
        </Group>
      </Group>
      <Box
        ref={ref}
        pos="relative"
        h={HEIGHT}
        style={{ borderRadius: 'var(--mantine-radius-sm)', overflow: 'hidden', background: 'light-dark(#e8f1f8, #14202b)' }}
      >
        {(map.isPending || !countries) && <Loader pos="absolute" top="45%" left="48%" size="sm" aria-label="loading" />}
        {map.isError && (
          <Text c="red" p="md">
            {t('dashboard.error')}
          </Text>
        )}
        {width > 0 && (
          <svg width={width} height={HEIGHT} role="group" aria-label={t('dashboard.map_title')} style={{ display: 'block' }}>
            <g>
              {outlines.map((o) => (
                <path
                  key={o.key}
                  d={o.d}
                  style={{
                    fill: 'light-dark(#ffffff, #2a3542)',
                    stroke: 'light-dark(#b7c4d1, #4a5968)',
                    strokeWidth: 0.6,
                  }}
                />
              ))}
            </g>
            <g>
              {clusters.filter(visible).map((c) => {
                const r = clusterRadius(c.count);
                const label = labelOf(c);
                const kind = c.points.length > 1 ? 'map-cluster' : c.count > 1 ? 'map-place' : 'map-point';
                return (
                  <g
                    key={c.key}
                    transform={`translate(${c.x},${c.y})`}
                    role="link"
                    tabIndex={0}
                    aria-label={label}
                    data-testid={kind}
                    style={{ cursor: 'pointer' }}
                    onClick={() => open(c)}
                    onKeyDown={(e) => {
                      if (e.key === 'Enter' || e.key === ' ') {
                        e.preventDefault();
                        open(c);
                      }
                    }}
                  >
                    <title>{label}</title>
                    <circle r={r} style={{ fill: FILL[c.status], fillOpacity: 0.9, stroke: 'light-dark(#ffffff, #0b1118)', strokeWidth: 1.5 }} />
                    {c.count > 1 && (
                      <text
                        textAnchor="middle"
                        dy="0.35em"
                        style={{ fontSize: 11, fontWeight: 700, fill: c.status === 'yellow' ? '#1f1f1f' : '#ffffff', pointerEvents: 'none' }}
                      >
                        {c.count}
                      </text>
                    )}
                  </g>
                );
              })}
            </g>
          </svg>
        )}
      </Box>
      {/* The attribution in the interface's language (the server's is English). */}
      <Text size="xs" c="dimmed" mt={6}>
        {t('dashboard.map_attribution')}
      </Text>
      <PlaceList place={place} onClose={() => setPlace(null)} />
    </Card>
  );
}

/** The points of sale of one place of several, the most urgent first, each a link. */
function PlaceList({ place, onClose }: { place: MapPlace | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useMapPlace(place?.key ?? null);
  return (
    <Modal opened={place !== null} onClose={onClose} title={t('dashboard.map_place_title', { place: place?.key ?? '' })}>
      {detail.isPending && <Loader size="sm" aria-label="loading" />}
      {detail.isError && <Text c="red">{t('dashboard.error')}</Text>}
      {detail.data && (
        <Stack gap={6}>
          {detail.data.points.map((p) => (
            <Group key={p.pos_id} gap="xs" wrap="nowrap">
              <Box
                w={10}
                h={10}
                style={{ flex: 'none', borderRadius: '50%', background: FILL[p.status] }}
                title={t(`dashboard.light_${p.status || 'none'}`)}
              />
              <Anchor component={Link} to={`/app/table/pos/view/${p.pos_id}`} data-testid="map-place-pos">
                {p.name}
              </Anchor>
            </Group>
          ))}
          {detail.data.total > detail.data.points.length && (
            <Text size="sm" c="dimmed">
              {t('dashboard.map_place_more', { shown: detail.data.points.length, total: detail.data.total })}
            </Text>
          )}
        </Stack>
      )}
    </Modal>
  );
}
