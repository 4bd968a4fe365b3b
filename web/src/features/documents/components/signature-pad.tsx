import { Button, Group, Paper, Text } from '@mantine/core';
import { type PointerEvent, useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

export interface SignaturePadProps {
  /** The drawing as a PNG data URL; null when the pad is empty. */
  onChange: (png: string | null) => void;
  width?: number;
  height?: number;
}

/** A pad to draw a signature with the mouse, a pen or a finger. */
export function SignaturePad({ onChange, width = 480, height = 180 }: SignaturePadProps) {
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const drawing = useRef(false);
  const drawn = useRef(false);

  useEffect(() => {
    const ctx = canvas.current?.getContext('2d');
    if (!ctx) return;
    ctx.lineWidth = 2.5;
    ctx.lineCap = 'round';
    ctx.lineJoin = 'round';
    ctx.strokeStyle = '#0b1f66';
  }, []);

  const point = (e: PointerEvent<HTMLCanvasElement>) => {
    const c = e.currentTarget;
    const r = c.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * c.width) / r.width, y: ((e.clientY - r.top) * c.height) / r.height };
  };
  const down = (e: PointerEvent<HTMLCanvasElement>) => {
    const ctx = e.currentTarget.getContext('2d');
    if (!ctx) return;
    e.currentTarget.setPointerCapture?.(e.pointerId);
    drawing.current = true;
    const p = point(e);
    ctx.beginPath();
    ctx.moveTo(p.x, p.y);
    ctx.lineTo(p.x + 0.1, p.y + 0.1);
    ctx.stroke();
  };
  const move = (e: PointerEvent<HTMLCanvasElement>) => {
    if (!drawing.current) return;
    const ctx = e.currentTarget.getContext('2d');
    if (!ctx) return;
    const p = point(e);
    ctx.lineTo(p.x, p.y);
    ctx.stroke();
    drawn.current = true;
  };
  const up = () => {
    if (!drawing.current) return;
    drawing.current = false;
    if (drawn.current && canvas.current) onChange(canvas.current.toDataURL('image/png'));
  };
  const clear = () => {
    const c = canvas.current;
    c?.getContext('2d')?.clearRect(0, 0, c.width, c.height);
    drawn.current = false;
    onChange(null);
  };

  return (
    <div>
      <Paper withBorder radius="sm" bg="white" style={{ display: 'inline-block', maxWidth: '100%' }}>
        <canvas
          ref={canvas}
          width={width}
          height={height}
          aria-label={t('documents.sign.pad')}
          role="img"
          data-testid="signature-pad"
          style={{ display: 'block', width: '100%', maxWidth: width, touchAction: 'none', cursor: 'crosshair' }}
          onPointerDown={down}
          onPointerMove={move}
          onPointerUp={up}
          onPointerLeave={up}
        />
      </Paper>
      <Group justify="space-between" mt={4} maw={width}>
        <Text size="xs" c="dimmed">
          {t('documents.sign.pad_hint')}
        </Text>
        <Button size="compact-xs" variant="subtle" onClick={clear}>
          {t('documents.sign.clear')}
        </Button>
      </Group>
    </div>
  );
}
