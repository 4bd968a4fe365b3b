import { useViewportSize } from '@mantine/hooks';
import { type RefObject, useLayoutEffect, useState } from 'react';

/** The height that lets an element reach the bottom of the window, less `bottom` pixels. */
export function useFillHeight(ref: RefObject<HTMLElement | null>, bottom: number, min = 240): number {
  const { height } = useViewportSize();
  const [top, setTop] = useState(200);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setTop(el.getBoundingClientRect().top + window.scrollY);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [ref]);
  return Math.max(min, (height || window.innerHeight) - top - bottom);
}
