/**
 * `/app/journals/{id}/study`: practice sets, videos and flashcard decks made from the journal.
 * Each is created here (practice sets and videos are jobs: their progress is polled until they
 * end), shown (problems, the video from an object URL of its MP4, the cards) and deleted.
 * Videos and decks are those whose journal_id is this journal; practice sets are named after it.
 */
import type { Api, Deck, PracticeStatus, VideoStatus } from '../api.ts';
import { clear, h } from '../dom.ts';
import { clearMessages, frame, inlineForm, showError } from '../ui.ts';

const POLL_MS = 700;

export function studyPage(api: Api, journalId: string, onSignOut: () => void): () => void {
  const { main, messages } = frame({ signedIn: true, onSignOut });
  let stopped = false;
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const later = (f: () => void) => {
    const t = setTimeout(() => {
      timers.delete(t);
      if (!stopped) f();
    }, POLL_MS);
    timers.add(t);
  };
  const fail = (err: unknown) => showError(messages, err);
  const heading = h('h1', { id: 'journal-title' }, 'Study');
  let journalTitle = 'Journal';
  const editor = `/app/journals/${encodeURIComponent(journalId)}`;

  // --- practice sets ---------------------------------------------------------------------------
  const practiceList = h('div', { class: 'study-list', id: 'practice-list' });
  const topic = h('input', { id: 'practice-topic', placeholder: 'Topic (e.g. linear equations in one variable)', maxLength: 500, required: true });
  const count = h('input', { id: 'practice-count', type: 'number', min: '1', max: '20', value: '3', 'aria-label': 'Problems' });
  const practiceForm = inlineForm(
    messages,
    async () => {
      const r = await api.createPractice(topic.value.trim(), Number(count.value) || 3, journalTitle);
      await loadPractice();
      watchPractice(r.set_id);
    },
    topic,
    count,
    h('button', { type: 'submit', class: 'primary', id: 'create-practice' }, 'Make a practice set'),
  );

  function practiceCard(s: PracticeStatus): HTMLElement {
    const progress = h('progress', { max: s.total_problems || 1, value: s.completed_problems });
    const card = h(
      'article',
      { class: `study-item practice status-${s.status}`, dataset: { setId: s.set_id, status: s.status } },
      h('div', { class: 'row' }, h('strong', {}, s.set_name ?? 'Practice set'), h('span', { class: 'status' }, s.status === 'pending' ? `${s.completed_problems} of ${s.total_problems} made` : s.status), progress),
      s.status === 'failed' || s.status === 'status_error' ? h('p', { class: 'why' }, s.message) : null,
      s.response
        ? h(
            'ol',
            { class: 'problems' },
            ...s.response.problems.map((p) =>
              h(
                'li',
                {},
                h('p', {}, p.problem_statement),
                Object.keys(p.answer_choices).length ? h('ul', {}, ...Object.entries(p.answer_choices).map(([k, v]) => h('li', {}, `${k}. ${v}`))) : null,
                h('details', {}, h('summary', {}, 'Answer'), h('p', {}, p.correct_answer), p.explanation ? h('p', { class: 'muted' }, p.explanation) : null),
              ),
            ),
          )
        : null,
      h('button', { type: 'button', class: 'delete danger', onclick: () => void removePractice(s.set_id) }, 'Delete'),
    );
    return card;
  }

  async function loadPractice(): Promise<void> {
    const r = await api.practiceSets();
    const mine = r.sets.filter((s) => s.set_name === journalTitle);
    const statuses = await Promise.all(mine.map((s) => api.practiceStatus(s.set_id)));
    clear(practiceList);
    practiceList.append(...statuses.map(practiceCard));
    if (statuses.length === 0) practiceList.append(h('p', { class: 'empty' }, 'No practice sets from this journal yet.'));
    for (const s of statuses) if (s.status === 'pending') watchPractice(s.set_id);
  }

  function watchPractice(setId: string): void {
    later(async () => {
      try {
        const s = await api.practiceStatus(setId);
        practiceList.querySelector(`[data-set-id="${CSS.escape(setId)}"]`)?.replaceWith(practiceCard(s));
        if (s.status === 'pending') watchPractice(setId);
      } catch (err) {
        fail(err);
      }
    });
  }

  async function removePractice(setId: string): Promise<void> {
    clearMessages(messages);
    try {
      await api.deletePractice(setId);
      await loadPractice();
    } catch (err) {
      fail(err);
    }
  }

  // --- videos ------------------------------------------------------------------------------------
  const videoList = h('div', { class: 'study-list', id: 'video-list' });
  const seconds = h('input', { id: 'video-seconds', type: 'number', min: '5', max: '600', value: '30', 'aria-label': 'Longest duration in seconds' });
  const videoForm = inlineForm(
    messages,
    async () => {
      const r = await api.createVideo(journalId, Number(seconds.value) || 30);
      await loadVideos();
      watchVideo(r.video_id);
    },
    h('label', {}, 'At most ', seconds, ' s'),
    h('button', { type: 'submit', class: 'primary', id: 'create-video' }, 'Make a video'),
  );
  const objectUrls: string[] = [];

  function videoCard(v: VideoStatus): HTMLElement {
    const card = h(
      'article',
      { class: `study-item video status-${v.status}`, dataset: { videoId: v.video_id, status: v.status } },
      h('div', { class: 'row' }, h('strong', {}, v.response?.title ?? 'Video'), h('span', { class: 'status' }, v.status === 'pending' ? `${Math.round(v.completion_percentage)}%` : v.status), h('progress', { max: 100, value: v.completion_percentage })),
      v.status === 'failed' || v.status === 'status_error' ? h('p', { class: 'why' }, v.message) : null,
      v.status === 'completed' ? h('button', { type: 'button', class: 'play', onclick: () => void play(card, v.video_id) }, 'Play') : null,
      h('button', { type: 'button', class: 'delete danger', onclick: () => void removeVideo(v.video_id) }, 'Delete'),
    );
    return card;
  }

  async function play(card: HTMLElement, videoId: string): Promise<void> {
    try {
      const url = URL.createObjectURL(await api.videoFile(videoId));
      objectUrls.push(url);
      card.querySelector('video')?.remove();
      card.append(h('video', { src: url, controls: true, class: 'player' }));
    } catch (err) {
      fail(err);
    }
  }

  async function loadVideos(): Promise<void> {
    const r = await api.videos();
    const mine = r.videos.filter((v) => v.journal_id === journalId);
    const statuses = await Promise.all(mine.map((v) => api.videoStatus(v.video_id)));
    clear(videoList);
    videoList.append(...statuses.map(videoCard));
    if (statuses.length === 0) videoList.append(h('p', { class: 'empty' }, 'No videos from this journal yet.'));
    for (const v of statuses) if (v.status === 'pending') watchVideo(v.video_id);
  }

  function watchVideo(videoId: string): void {
    later(async () => {
      try {
        const v = await api.videoStatus(videoId);
        videoList.querySelector(`[data-video-id="${CSS.escape(videoId)}"]`)?.replaceWith(videoCard(v));
        if (v.status === 'pending') watchVideo(videoId);
      } catch (err) {
        fail(err);
      }
    });
  }

  async function removeVideo(videoId: string): Promise<void> {
    clearMessages(messages);
    try {
      await api.deleteVideo(videoId);
      await loadVideos();
    } catch (err) {
      fail(err);
    }
  }

  // --- flashcards ----------------------------------------------------------------------------------
  const deckList = h('div', { class: 'study-list', id: 'deck-list' });
  const cards = h('input', { id: 'deck-count', type: 'number', min: '1', max: '50', value: '5', 'aria-label': 'Cards' });
  const deckForm = inlineForm(
    messages,
    async () => {
      await api.createDeck(journalId, Number(cards.value) || 5);
      await loadDecks();
    },
    cards,
    h('button', { type: 'submit', class: 'primary', id: 'create-deck' }, 'Make flashcards'),
  );

  const deckCard = (d: Deck) =>
    h(
      'article',
      { class: 'study-item deck', dataset: { deckId: d.deck_id } },
      h('div', { class: 'row' }, h('strong', {}, `${d.flashcards.length} cards`)),
      h('dl', { class: 'cards' }, ...d.flashcards.flatMap((c) => [h('dt', {}, c.front), h('dd', {}, c.back)])),
      h('button', { type: 'button', class: 'delete danger', onclick: () => void removeDeck(d.deck_id) }, 'Delete'),
    );

  async function loadDecks(): Promise<void> {
    const r = await api.decks();
    const decks = await Promise.all(r.decks.filter((d) => d.journal_id === journalId).map((d) => api.deck(d.deck_id)));
    clear(deckList);
    deckList.append(...decks.map(deckCard));
    if (decks.length === 0) deckList.append(h('p', { class: 'empty' }, 'No flashcards from this journal yet.'));
  }

  async function removeDeck(deckId: string): Promise<void> {
    clearMessages(messages);
    try {
      await api.deleteDeck(deckId);
      await loadDecks();
    } catch (err) {
      fail(err);
    }
  }

  main.append(
    h('div', { class: 'editor-head' }, h('a', { href: editor, dataset: { nav: '' }, class: 'back' }, '← Journal'), heading),
    h('section', { class: 'card', id: 'practice' }, h('h2', {}, 'Practice sets'), practiceForm, practiceList),
    h('section', { class: 'card', id: 'videos' }, h('h2', {}, 'Videos'), videoForm, videoList),
    h('section', { class: 'card', id: 'flashcards' }, h('h2', {}, 'Flashcards'), deckForm, deckList),
  );

  void (async () => {
    try {
      const c = await api.content(journalId);
      journalTitle = c.title;
      heading.textContent = `Study “${c.title}”`;
      topic.value = c.title;
      await Promise.all([loadPractice(), loadVideos(), loadDecks()]);
    } catch (err) {
      fail(err);
    }
  })();

  return () => {
    stopped = true;
    for (const t of timers) clearTimeout(t);
    for (const u of objectUrls) URL.revokeObjectURL(u);
  };
}
