export const render = (text: string): string => text;
