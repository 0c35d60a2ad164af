// pg's CommonJS entry (postgres-engine.ts imports it by path), typed as the package's main entry.
declare module 'pg/lib/index.js' {
  import pg from 'pg';
  export default pg;
}
