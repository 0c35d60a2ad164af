// Type declarations for the two untyped text-processing packages the practice engines use.
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
