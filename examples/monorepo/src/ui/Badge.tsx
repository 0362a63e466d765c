export function Badge({ label, width }: { label: string; width: number }) {
  return label.padEnd(width);
}
