import { isContentAttribute } from '@telltale/semconv';
import { fieldSourcesOf } from '../normalise/attributeLookup.js';

/** What an attribute name means to the fused decoder: the canonical fields it feeds, whether it is content. */
export interface KeyInfo {
  codes: readonly number[] | undefined;
  content: boolean;
}

const MAX_KEYS = 4_096;
const keyInfos = new Map<string, KeyInfo>();

/** The meaning of an attribute name, looked up once per name (up to 4,096 names, then afresh). */
export function keyInfo(key: string): KeyInfo {
  let info = keyInfos.get(key);
  if (info === undefined) {
    info = { codes: fieldSourcesOf(key), content: isContentAttribute(key) };
    if (keyInfos.size >= MAX_KEYS) keyInfos.clear();
    keyInfos.set(key, info);
  }
  return info;
}
