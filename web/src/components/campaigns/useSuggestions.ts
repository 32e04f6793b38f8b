// Suggestions for the campaign creator's keyword (SPEC §7, §9): 1000 ms after the last
// keystroke of a keyword longer than 2 characters, suggested copy and a random page (1–5)
// of Pixabay images; refresh asks for another page. Answers for an older keyword are dropped.
import { useCallback, useEffect, useRef, useState } from 'react';
import { MAX_SUGGESTION_PAGE, MIN_KEYWORD_LENGTH, type ImageSuggestion, type SuggestedCopy } from '@adops/core';
import { useApi } from '../../hooks/useApi';

/** SPEC §9: copy generation waits 1 s after typing. */
export const SUGGESTION_DEBOUNCE_MS = 1000;

export interface ImageSuggestions {
  items: ImageSuggestion[];
  /** The Pixabay page shown (1–5), null before the first search. */
  page: number | null;
  loading: boolean;
  error: unknown;
}

export interface CopyStatus {
  loading: boolean;
  error: unknown;
}

const NO_IMAGES: ImageSuggestions = { items: [], page: null, loading: false, error: null };
const COPY_IDLE: CopyStatus = { loading: false, error: null };

/** A page in 1..MAX_SUGGESTION_PAGE, different from `current` when one is given. */
export function randomPage(current: number | null = null, random: () => number = Math.random): number {
  const pages = Array.from({ length: MAX_SUGGESTION_PAGE }, (_, i) => i + 1).filter((p) => p !== current);
  return pages[Math.floor(random() * pages.length)] ?? 1;
}

export const keywordReady = (keyword: string) => keyword.trim().length >= MIN_KEYWORD_LENGTH;

export function useSuggestions(keyword: string, onCopy: (copy: SuggestedCopy) => void) {
  const api = useApi();
  const [images, setImages] = useState<ImageSuggestions>(NO_IMAGES);
  const [copy, setCopy] = useState<CopyStatus>(COPY_IDLE);
  const onCopyRef = useRef(onCopy);
  onCopyRef.current = onCopy;
  const imageSearch = useRef<AbortController | null>(null);
  const term = keyword.trim();
  const ready = keywordReady(term);

  const searchImages = useCallback(
    (query: string, page: number) => {
      imageSearch.current?.abort();
      const controller = new AbortController();
      imageSearch.current = controller;
      setImages((s) => ({ ...s, page, loading: true, error: null }));
      api.campaigns.imageSuggestions({ query, page }, { signal: controller.signal }).then(
        (items) => {
          if (!controller.signal.aborted) setImages({ items, page, loading: false, error: null });
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setImages({ items: [], page, loading: false, error });
        },
      );
    },
    [api],
  );

  useEffect(() => {
    imageSearch.current?.abort();
    if (!ready) {
      setImages(NO_IMAGES);
      setCopy(COPY_IDLE);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setCopy({ loading: true, error: null });
      api.campaigns.generateCopy({ keyword: term }, { signal: controller.signal }).then(
        (suggested) => {
          if (controller.signal.aborted) return;
          onCopyRef.current({ ...suggested, cta: suggested.cta || 'LEARN_MORE' });
          setCopy(COPY_IDLE);
        },
        (error: unknown) => {
          if (!controller.signal.aborted) setCopy({ loading: false, error });
        },
      );
      searchImages(term, randomPage());
    }, SUGGESTION_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [api, term, ready, searchImages]);

  useEffect(() => () => imageSearch.current?.abort(), []);

  /** Another random page of images for the current keyword. */
  const refreshImages = useCallback(() => {
    if (ready) searchImages(term, randomPage(images.page));
  }, [ready, term, images.page, searchImages]);

  return { images, copy, refreshImages, ready };
}
