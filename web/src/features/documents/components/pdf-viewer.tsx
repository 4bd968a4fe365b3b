/**
 * A PDF shown with pdf.js (pdfjs-dist, its worker bundled by Vite): every
 * page on a canvas, page navigation, zoom and a search in the text. The
 * URL is a link URL (a short-lived link token, decision 0018); pdf.js
 * fetches it itself, without credentials.
 */
import { ActionIcon, Alert, Box, Group, Loader, NumberInput, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { IconChevronLeft, IconChevronRight, IconSearch, IconZoomIn, IconZoomOut } from '@tabler/icons-react';
import * as pdfjs from 'pdfjs-dist';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

pdfjs.GlobalWorkerOptions.workerSrc = workerUrl;

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

export interface PdfViewerProps {
  url: string;
  /** Drawn over the first page (the signature's place), positioned by the caller in % of the page. */
  firstPageOverlay?: ReactNode;
  /** Reports the number of pages once the document is read. */
  onLoaded?: (pages: number) => void;
  height?: string | number;
}

function PdfPage({ doc, number, scale, overlay }: { doc: PDFDocumentProxy; number: number; scale: number; overlay?: ReactNode }) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  useEffect(() => {
    let cancelled = false;
    let task: { cancel: () => void; promise: Promise<unknown> } | null = null;
    void doc.getPage(number).then((page) => {
      if (cancelled || !canvas.current) return;
      const viewport = page.getViewport({ scale });
      const ratio = window.devicePixelRatio || 1;
      const c = canvas.current;
      c.width = Math.floor(viewport.width * ratio);
      c.height = Math.floor(viewport.height * ratio);
      setSize({ w: viewport.width, h: viewport.height });
      const ctx = c.getContext('2d');
      if (!ctx) return;
      task = page.render({ canvas: c, canvasContext: ctx, viewport, transform: ratio !== 1 ? [ratio, 0, 0, ratio, 0, 0] : undefined });
      task.promise.catch(() => undefined);
    });
    return () => {
      cancelled = true;
      task?.cancel();
    };
  }, [doc, number, scale]);
  return (
    <Box
      pos="relative"
      data-page={number}
      style={{ boxShadow: 'var(--mantine-shadow-sm)', background: 'white', width: size?.w, height: size?.h, margin: '0 auto' }}
    >
      <canvas ref={canvas} aria-label={t('documents.preview.page', { page: number })} role="img" style={{ width: size?.w, height: size?.h, display: 'block' }} />
      {overlay}
    </Box>
  );
}

export function PdfViewer({ url, firstPageOverlay, onLoaded, height = 'calc(100vh - 200px)' }: PdfViewerProps) {
  const { t } = useTranslation();
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [failed, setFailed] = useState(false);
  const [zoom, setZoom] = useState(2);
  const [page, setPage] = useState(1);
  const [query, setQuery] = useState('');
  const [hits, setHits] = useState<number[] | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const texts = useRef<Map<number, string>>(new Map());

  useEffect(() => {
    setDoc(null);
    setFailed(false);
    setHits(null);
    texts.current = new Map();
    const task = pdfjs.getDocument({ url, withCredentials: false, isEvalSupported: false, disableRange: true, disableStream: true });
    let current: PDFDocumentProxy | null = null;
    task.promise.then(
      (d) => {
        current = d;
        setDoc(d);
        setPage(1);
        onLoaded?.(d.numPages);
      },
      () => setFailed(true),
    );
    return () => {
      void task.destroy();
      void current?.destroy();
    };
    // onLoaded is a report, not an input.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [url]);

  const goTo = (n: number) => {
    if (!doc) return;
    const p = Math.min(Math.max(1, n), doc.numPages);
    setPage(p);
    scroller.current?.querySelector(`[data-page="${p}"]`)?.scrollIntoView({ block: 'start' });
  };

  const search = async () => {
    const term = query.trim().toLowerCase();
    if (!doc || !term) {
      setHits(null);
      return;
    }
    const found: number[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      let text = texts.current.get(n);
      if (text === undefined) {
        const content = await (await doc.getPage(n)).getTextContent();
        text = content.items.map((i) => ('str' in i ? i.str : '')).join(' ').toLowerCase();
        texts.current.set(n, text);
      }
      if (text.includes(term)) found.push(n);
    }
    setHits(found);
    if (found.length > 0) goTo(found[0]);
  };

  if (failed) return <Alert color="red">{t('documents.preview.failed')}</Alert>;
  if (!doc) return <Loader aria-label={t('documents.preview.loading')} />;
  const scale = ZOOMS[zoom];
  return (
    <Stack gap="xs" data-testid="pdf-viewer" data-pages={doc.numPages}>
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap={4}>
          <ActionIcon variant="default" onClick={() => goTo(page - 1)} disabled={page <= 1} aria-label={t('documents.preview.previous_page')}>
            <IconChevronLeft size={16} />
          </ActionIcon>
          <NumberInput
            size="xs"
            w={64}
            min={1}
            max={doc.numPages}
            value={page}
            onChange={(v) => typeof v === 'number' && goTo(v)}
            aria-label={t('documents.preview.page_number')}
            hideControls
          />
          <Text size="sm">{t('documents.preview.of_pages', { count: doc.numPages })}</Text>
          <ActionIcon variant="default" onClick={() => goTo(page + 1)} disabled={page >= doc.numPages} aria-label={t('documents.preview.next_page')}>
            <IconChevronRight size={16} />
          </ActionIcon>
        </Group>
        <Group gap={4}>
          <Tooltip label={t('documents.preview.zoom_out')}>
            <ActionIcon variant="default" onClick={() => setZoom((z) => Math.max(0, z - 1))} disabled={zoom === 0} aria-label={t('documents.preview.zoom_out')}>
              <IconZoomOut size={16} />
            </ActionIcon>
          </Tooltip>
          <Text size="sm" w={48} ta="center" data-testid="pdf-zoom">
            {Math.round(scale * 100)} %
          </Text>
          <Tooltip label={t('documents.preview.zoom_in')}>
            <ActionIcon
              variant="default"
              onClick={() => setZoom((z) => Math.min(ZOOMS.length - 1, z + 1))}
              disabled={zoom === ZOOMS.length - 1}
              aria-label={t('documents.preview.zoom_in')}
            >
              <IconZoomIn size={16} />
            </ActionIcon>
          </Tooltip>
        </Group>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            void search();
          }}
        >
          <Group gap={4}>
            <TextInput
              size="xs"
              value={query}
              onChange={(e) => setQuery(e.currentTarget.value)}
              placeholder={t('documents.preview.search')}
              aria-label={t('documents.preview.search')}
              leftSection={<IconSearch size={14} />}
            />
            {hits !== null && (
              <Text size="xs" c={hits.length ? undefined : 'red'} data-testid="pdf-hits">
                {hits.length ? t('documents.preview.found_on', { pages: hits.join(', ') }) : t('documents.preview.not_found')}
              </Text>
            )}
          </Group>
        </form>
      </Group>
      <Box
        ref={scroller}
        h={height}
        p="md"
        style={{ overflow: 'auto', background: 'var(--mantine-color-default-hover)', borderRadius: 4 }}
        onScroll={(e) => {
          const top = e.currentTarget.scrollTop;
          const pages = e.currentTarget.querySelectorAll<HTMLElement>('[data-page]');
          let seen = 1;
          pages.forEach((el) => {
            if (el.offsetTop - e.currentTarget.offsetTop <= top + 40) seen = Number(el.dataset.page);
          });
          setPage(seen);
        }}
      >
        <Stack gap="md">
          {Array.from({ length: doc.numPages }, (_, i) => (
            <PdfPage key={i + 1} doc={doc} number={i + 1} scale={scale} overlay={i === 0 ? firstPageOverlay : undefined} />
          ))}
        </Stack>
      </Box>
    </Stack>
  );
}
