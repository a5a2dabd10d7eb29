export const CODEC_PLACEHOLDER = 1;
