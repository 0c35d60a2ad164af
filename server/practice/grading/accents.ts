/**
 * Letters and symbols a short answer is read in. Accents never split or block a word ("García
 * Márquez" is read as "Garcia Marquez", on both sides), letters with no accent to strip are
 * spelled in Latin letters ("ø", "æ", "ß"), and unit symbols are read as their names ("Ω" is
 * "ohm", "°C" "degrees Celsius", "µg" "microgram", "Å" "angstrom"). Letters of other scripts are
 * kept as they are: an answer in them is an answer, only not one in these words.
 */

/** Letters with no combining mark to strip, as they are spelled in English. */
const SPELLED: Record<string, string> = { ß: 'ss', æ: 'ae', Æ: 'Ae', œ: 'oe', Œ: 'Oe', ø: 'o', Ø: 'O', ł: 'l', Ł: 'L', đ: 'd', Đ: 'D', ð: 'd', Ð: 'D', þ: 'th', Þ: 'Th', ı: 'i' };

/** Units written after the micro sign ("µg", "µm"), by their symbol. */
const MICRO_UNITS: Record<string, string> = { m: 'metre', g: 'gram', s: 'second', L: 'litre', l: 'litre', F: 'farad', A: 'ampere', V: 'volt', W: 'watt', J: 'joule', mol: 'mole', Ω: 'ohm', H: 'henry', C: 'coulomb', T: 'tesla', N: 'newton' };
/** SI prefixes written before the ohm sign ("kΩ"). */
const OHM_PREFIXES: Record<string, string> = { k: 'kil', M: 'meg', G: 'gig', m: 'milli', µ: 'micr' };

/** Not a letter: a symbol standing alone or after a number is a unit, inside a word a letter. */
const EDGE_BEFORE = '(?<![\\p{L}])';
const EDGE_AFTER = '(?![\\p{L}])';

/** Unit symbols read as the names of their units. */
export function unitNames(text: string): string {
  return (
    text
      // The ohm sign and the Greek capital omega; the micro sign and the Greek small mu.
      .replace(/\u2126/g, 'Ω')
      .replace(/\u03bc/g, 'µ')
      .replace(/\u212b/g, 'Å')
      .replace(/\u2103|°\s?C(?![\p{L}])/gu, ' degrees Celsius ')
      .replace(/\u2109|°\s?F(?![\p{L}])/gu, ' degrees Fahrenheit ')
      .replace(/°/g, ' degrees ')
      .replace(new RegExp(`${EDGE_BEFORE}([kMGmµ]?)Ω${EDGE_AFTER}`, 'gu'), (_, p: string) => ` ${p ? `${OHM_PREFIXES[p]}ohm` : 'ohm'} `)
      .replace(new RegExp(`${EDGE_BEFORE}µ(mol|[mgsLlFAVWJHCTN])?${EDGE_AFTER}`, 'gu'), (_, u: string | undefined) => ` micro${u ? MICRO_UNITS[u] : ''} `)
      .replace(new RegExp(`${EDGE_BEFORE}Å${EDGE_AFTER}`, 'gu'), ' angstrom ')
  );
}

/** Latin letters without their accents; letters of other scripts as written. */
export function plainLetters(text: string): string {
  return text
    .replace(/[ßæÆœŒøØłŁđĐðÐþÞı]/g, (c) => SPELLED[c] ?? c)
    .normalize('NFD')
    .replace(/(?<=\p{Script=Latin})\p{M}+/gu, '')
    .normalize('NFC');
}

/** An answer's text as it is read: unit symbols by name, then letters without accents. */
export function readableText(text: string): string {
  // Plain ASCII (most text, and every WordNet gloss) has no accent or symbol to read.
  if (!/[^\x00-\x7f]/.test(text)) return text;
  return plainLetters(unitNames(text));
}
