export function listUsers(): string[] {
  return [];
}
