/** class-transformer's metadata storage, as its CommonJS build (the one the service runs) exports it: PlainToInstance reads it. */
declare module 'class-transformer/cjs/storage' {
  export { defaultMetadataStorage } from 'class-transformer/types/storage';
}
