import { describe, expect, it } from 'vitest';
import { extractFlashcards, FlashcardError, frontKey } from '../../server/flashcards/extract.ts';
import { OutlineError, type PMJSON } from '../../server/video/outline.ts';

const t = (text: string, bold = false): PMJSON => ({ type: 'text', text, ...(bold ? { marks: [{ type: 'strong' }] } : {}) });
const p = (id: string, ...content: PMJSON[]): PMJSON => ({ type: 'paragraph', attrs: { id }, content });
const h = (id: string, text: string, level = 2): PMJSON => ({ type: 'heading', attrs: { id, level }, content: [t(text)] });
const li = (id: string, ...content: PMJSON[]): PMJSON => ({ type: 'list_item', attrs: { id, checked: null }, content: [p(`${id}-p`, ...content)] });

const journal: PMJSON = {
  type: 'doc',
  content: [
    h('h-title', 'Cell biology', 1),
    p('p-colon', t('Osmosis: the movement of water across a semipermeable membrane.')),
    p('p-bold-def', t('Mitochondria', true), t(' are the organelles that produce most of the ATP of a cell.')),
    p('p-refers', t('A genome refers to the complete set of genetic material of an organism.')),
    p('p-called', t('The process by which a cell divides into two cells is called mitosis.')),
    p('p-isa', t('An enzyme is a protein that speeds up chemical reactions. It is important.')),
    p('p-appos', t('Plants capture light with '), t('chlorophyll', true), t(', a green pigment in the chloroplasts.')),
    p('p-note', t('Note: this will be on the exam.')),
    p('p-pronoun', t('This is the best part of the course.')),
    h('h-ribo', 'Ribosomes'),
    p('p-ribo', t('Ribosomes build proteins from amino acids. They are found in all cells.')),
    h('h-summary', 'Summary'),
    p('p-summary', t('We covered many parts of the cell today.')),
    {
      type: 'bullet_list',
      attrs: { id: 'list' },
      content: [
        li('li-atp', t('ATP', true), t(' — the energy currency of the cell')),
        li('li-dup', t('osmosis: water moving again, a duplicate front')),
        li('li-diff', t('Diffusion', true), t(': the spreading of particles from high to low concentration')),
      ],
    },
    { type: 'code_block', attrs: { id: 'code', language: 'js' }, content: [t('const x: number = 1;')] },
  ],
};

describe('extractFlashcards from a journal', () => {
  const cards = extractFlashcards({ doc: journal }, 50);
  const byFront = new Map(cards.map((c) => [c.front, c]));

  it('extracts term/definition pairs in several definition styles', () => {
    expect(byFront.get('Osmosis')).toEqual({ front: 'Osmosis', back: 'The movement of water across a semipermeable membrane.', source_block_id: 'p-colon' });
    expect(byFront.get('Mitochondria')).toEqual({ front: 'Mitochondria', back: 'The organelles that produce most of the ATP of a cell.', source_block_id: 'p-bold-def' });
    expect(byFront.get('Genome')).toEqual({ front: 'Genome', back: 'The complete set of genetic material of an organism.', source_block_id: 'p-refers' });
    expect(byFront.get('Mitosis')).toEqual({ front: 'Mitosis', back: 'The process by which a cell divides into two cells', source_block_id: 'p-called' });
    expect(byFront.get('Enzyme')).toEqual({ front: 'Enzyme', back: 'A protein that speeds up chemical reactions.', source_block_id: 'p-isa' });
    expect(byFront.get('Chlorophyll')).toEqual({ front: 'Chlorophyll', back: 'A green pigment in the chloroplasts', source_block_id: 'p-appos' });
    expect(byFront.get('Ribosomes')).toEqual({ front: 'Ribosomes', back: 'Ribosomes build proteins from amino acids.', source_block_id: 'p-ribo' });
    expect(byFront.get('ATP')).toEqual({ front: 'ATP', back: 'The energy currency of the cell', source_block_id: 'li-atp' });
    expect(byFront.get('Diffusion')?.back).toBe('The spreading of particles from high to low concentration');
  });

  it('skips labels, pronoun sentences, generic headings and code', () => {
    const fronts = cards.map((c) => c.front.toLowerCase());
    expect(fronts).not.toContain('note');
    expect(fronts).not.toContain('this');
    expect(fronts).not.toContain('summary');
    expect(fronts.some((f) => f.includes('const'))).toBe(false);
  });

  it('has no duplicate fronts (the earlier, better card wins)', () => {
    const keys = cards.map((c) => frontKey(c.front));
    expect(new Set(keys).size).toBe(keys.length);
    expect(cards.filter((c) => frontKey(c.front) === 'osmosis')).toHaveLength(1);
    expect(byFront.get('Osmosis')!.source_block_id).toBe('p-colon');
  });

  it('traces every card to a block and keeps document order', () => {
    const order = ['h-title', 'p-colon', 'p-bold-def', 'p-refers', 'p-called', 'p-isa', 'p-appos', 'p-note', 'p-pronoun', 'h-ribo', 'p-ribo', 'h-summary', 'p-summary', 'li-atp', 'li-dup', 'li-diff'];
    const idx = cards.map((c) => order.indexOf(c.source_block_id!));
    expect(idx.every((i) => i >= 0)).toBe(true);
    expect([...idx].sort((a, b) => a - b)).toEqual(idx);
  });

  it('keeps the best candidates when count truncates, still in document order', () => {
    const three = extractFlashcards({ doc: journal }, 3);
    expect(three).toHaveLength(3);
    // The bold definition sentence ranks first; then the strongest forms in document order.
    expect(three.map((c) => c.front)).toEqual(['Osmosis', 'Mitochondria', 'Genome']);
    const glossary: PMJSON = {
      type: 'doc',
      content: Array.from({ length: 15 }, (_, i) => p(`g${i}`, t(`Term ${String.fromCharCode(65 + i)}: the definition of item ${i}`))),
    };
    const dflt = extractFlashcards({ doc: glossary });
    expect(dflt).toHaveLength(10); // default count
    expect(dflt[0]).toEqual({ front: 'Term A', back: 'The definition of item 0', source_block_id: 'g0' });
  });

  it('is deterministic', () => {
    expect(extractFlashcards({ doc: journal }, 50)).toEqual(cards);
  });
});

describe('extractFlashcards from text', () => {
  it('reads Term: definition lines, bold terms, definitions and headings', () => {
    const text = [
      '# Physics',
      '',
      'Velocity: the rate of change of position.',
      'Acceleration: the rate of change of velocity.',
      'Note: units matter.',
      '',
      '**Inertia** is the tendency of an object to resist changes in motion.',
      '',
      '## Newton',
      '',
      'Isaac Newton formulated the laws of motion. He was English.',
      '',
      '- Force — a push or a pull on an object',
      '- velocity: duplicate line',
    ].join('\n');
    const cards = extractFlashcards({ text }, 10);
    expect(cards.map((c) => [c.front, c.back])).toEqual([
      ['Velocity', 'The rate of change of position.'],
      ['Acceleration', 'The rate of change of velocity.'],
      ['Inertia', 'The tendency of an object to resist changes in motion.'],
      ['Newton', 'Isaac Newton formulated the laws of motion.'],
      ['Force', 'A push or a pull on an object'],
    ]);
    expect(cards.every((c) => /^text-\d+$/.test(c.source_block_id ?? ''))).toBe(true);
  });

  it('returns no cards when nothing reads as a definition', () => {
    expect(extractFlashcards({ text: 'We went outside. It was sunny and warm.' }, 5)).toEqual([]);
  });

  it('fails clearly on bad count or empty content', () => {
    expect(() => extractFlashcards({ text: 'A cat is an animal.' }, 0)).toThrow(FlashcardError);
    expect(() => extractFlashcards({ text: 'A cat is an animal.' }, 51)).toThrow(/1 to 50/);
    expect(() => extractFlashcards({ text: 'A cat is an animal.' }, 2.5)).toThrow(FlashcardError);
    expect(() => extractFlashcards({ text: '   ' }, 5)).toThrow(OutlineError);
    expect(() => extractFlashcards({ doc: { type: 'doc', content: [] } }, 5)).toThrow(OutlineError);
  });
});
