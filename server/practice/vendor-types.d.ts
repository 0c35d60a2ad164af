// Type declarations for the untyped packages and entries the practice engines use.
declare module 'wink-lemmatizer' {
  const lemmatizer: {
    noun(word: string): string;
    verb(word: string): string;
    adjective(word: string): string;
  };
  export default lemmatizer;
}

declare module 'wink-porter2-stemmer' {
  const stem: (word: string) => string;
  export default stem;
}

// nerdamer-prime's core file, typed by the package's own declarations (offline/nerdamer.ts).
declare module 'nerdamer-prime/nerdamer.core' {
  import nerdamer = require('nerdamer-prime');
  export = nerdamer;
}
