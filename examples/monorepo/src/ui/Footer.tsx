export function Footer({ width }: { width: number }) {
  return "-".repeat(width);
}
