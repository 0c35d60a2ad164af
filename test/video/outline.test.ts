import { describe, expect, it } from 'vitest';
import { buildOutline, OutlineError, splitSentences, type PMJSON } from '../../server/video/outline.ts';

const t = (text: string, marks?: PMJSON['marks']): PMJSON => ({ type: 'text', text, ...(marks ? { marks } : {}) });
const p = (id: string, ...content: PMJSON[]): PMJSON => ({ type: 'paragraph', attrs: { id }, content });
const h = (id: string, level: number, text: string): PMJSON => ({ type: 'heading', attrs: { id, level }, content: [t(text)] });
const li = (id: string, text: string): PMJSON => ({ type: 'list_item', attrs: { id, checked: null }, content: [p(`${id}p`, t(text))] });

const journal: PMJSON = {
  type: 'doc',
  content: [
    h('h-title', 1, 'The Water Cycle'),
    p('p-intro', t('Water moves between the oceans, the air and the land.')),
    h('h-evap', 2, 'Evaporation'),
    p('p-evap', t('The sun heats water. '), t('Evaporation', [{ type: 'strong' }]), t(' turns it into vapour.')),
    h('h-cond', 2, 'Condensation'),
    { type: 'bullet_list', attrs: { id: 'l1', tight: true }, content: [li('li1', 'Vapour cools'), li('li2', 'Clouds form')] },
    { type: 'html_block', attrs: { id: 'html1', html: '<div>ignored</div>' } },
    h('h-prec', 2, 'Precipitation'),
    p('p-prec', t('Rain, snow and hail fall back to the ground.')),
  ],
};

describe('buildOutline from a journal', () => {
  it('uses the single opening H1 as title and H2s as slides, with points, narration and sources', () => {
    const o = buildOutline({ doc: journal });
    expect(o.title).toBe('The Water Cycle');
    expect(o.slides.map((s) => s.heading)).toEqual(['The Water Cycle', 'Evaporation', 'Condensation', 'Precipitation']);
    const [intro, evap, cond, prec] = o.slides;
    expect(intro!.sourceBlockIds).toEqual(['p-intro']);
    expect(evap!.narration).toBe('Evaporation. The sun heats water. Evaporation turns it into vapour.');
    expect(evap!.points).toEqual(['The sun heats water.']);
    expect(evap!.sourceBlockIds).toEqual(['h-evap', 'p-evap']);
    expect(cond!.points).toEqual(['Vapour cools', 'Clouds form']);
    expect(cond!.narration).toBe('Condensation. Vapour cools. Clouds form.');
    expect(cond!.sourceBlockIds).toEqual(['h-cond', 'li1', 'li2']);
    expect(cond!.narration).not.toContain('ignored');
    expect(prec!.sourceBlockIds).toEqual(['h-prec', 'p-prec']);
    expect(o.truncated).toBeUndefined();
  });

  it('honours an explicit title', () => {
    expect(buildOutline({ doc: journal }, { title: 'Weather' }).title).toBe('Weather');
  });

  it('splits long sections into continued slides', () => {
    const items = Array.from({ length: 9 }, (_, i) => li(`i${i}`, `Point number ${i + 1} of the list`));
    const o = buildOutline({ doc: { type: 'doc', content: [h('h', 2, 'Many'), { type: 'bullet_list', attrs: { id: 'l' }, content: items }] } });
    expect(o.slides.map((s) => s.heading)).toEqual(['Many', 'Many (continued)']);
    expect(o.slides[0]!.points).toHaveLength(6);
    expect(o.slides[1]!.points).toHaveLength(3);
    expect(o.slides[1]!.sourceBlockIds).toEqual(['i6', 'i7', 'i8']);
  });

  it('truncates to maxDurationSeconds and says so', () => {
    const long = Array.from({ length: 20 }, (_, i) => [h(`h${i}`, 2, `Section ${i}`), p(`p${i}`, t('This sentence has exactly eight words in it. '.repeat(5)))]).flat();
    const o = buildOutline({ doc: { type: 'doc', content: long } }, { maxDurationSeconds: 30 });
    expect(o.truncated).toBe(true);
    expect(o.notes?.[0]).toMatch(/max_duration_seconds=30/);
    const words = o.slides.map((s) => s.narration).join(' ').split(/\s+/).length;
    expect(words / (165 / 60)).toBeLessThanOrEqual(30);
    expect(o.slides.length).toBeLessThan(20);
  });

  it('fails clearly on an empty journal', () => {
    expect(() => buildOutline({ doc: { type: 'doc', content: [{ type: 'paragraph', attrs: { id: 'x' }, content: [] }] } })).toThrow(OutlineError);
    expect(() => buildOutline({ doc: { type: 'doc', content: [{ type: 'horizontal_rule', attrs: { id: 'hr' } }] } })).toThrow(/empty/);
    expect(() => buildOutline({ doc: { type: 'doc' } as PMJSON })).toThrow(OutlineError);
  });
});

describe('buildOutline from text', () => {
  it('splits markdown-like text into sections and points', () => {
    const text = '# Volcanoes\n\nA volcano is an opening in the crust.\n\n## Types\n\n- Shield volcanoes\n- Stratovolcanoes\n\n## Eruptions\n\nMagma rises. Pressure builds up.\nThen it erupts.';
    const o = buildOutline({ text });
    expect(o.title).toBe('Volcanoes');
    expect(o.slides.map((s) => s.heading)).toEqual(['Volcanoes', 'Types', 'Eruptions']);
    expect(o.slides[1]!.points).toEqual(['Shield volcanoes', 'Stratovolcanoes']);
    expect(o.slides[2]!.narration).toBe('Eruptions. Magma rises. Pressure builds up. Then it erupts.');
    expect(o.slides.flatMap((s) => s.sourceBlockIds).every((id) => /^text-\d+$/.test(id))).toBe(true);
  });

  it('treats short title-like lines as headings and uses plain paragraphs otherwise', () => {
    const o = buildOutline({ text: 'Photosynthesis\n\nPlants turn light into sugar.\n\nRespiration\n\nCells burn sugar for energy.' }, { title: 'Energy' });
    expect(o.title).toBe('Energy');
    expect(o.slides.map((s) => s.heading)).toEqual(['Photosynthesis', 'Respiration']);
    const plain = buildOutline({ text: 'Just one paragraph of text. It has two sentences.' });
    expect(plain.slides).toHaveLength(1);
    expect(plain.title).toBe('Just one paragraph of text');
  });

  it('fails clearly on blank text', () => {
    expect(() => buildOutline({ text: '  \n\n ' })).toThrow(/empty/);
  });

  it('splits sentences without breaking common abbreviations', () => {
    expect(splitSentences('Use e.g. water. Dr. Smith agreed! Is it done? Yes.')).toEqual(['Use e.g. water.', 'Dr. Smith agreed!', 'Is it done?', 'Yes.']);
  });
});
