export const CORE_PLACEHOLDER = 1;
