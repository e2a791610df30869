import { useEffect, useRef, useState } from 'preact/hooks';

/** True once the element has scrolled into view: a long list loads what is seen, not all of it at once. */
export function useVisible<T extends Element>() {
  const ref = useRef<T>(null);
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const element = ref.current;
    if (!element || visible) return;
    if (typeof IntersectionObserver === 'undefined') return setVisible(true);
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && setVisible(true), { rootMargin: '200px' });
    observer.observe(element);
    return () => observer.disconnect();
  }, [visible]);
  return { ref, visible };
}
