import { useParams } from "react-router";

// Words from a fixed pseudo-random sequence, so the page compresses like real text, not like a
// run of one repeated sentence.
const WORDS =
  "anatomy incision suture procedure patient recovery surgeon tissue vessel nerve cartilage implant graft valve artery laser dermis muscle joint spine".split(
    " ",
  );

function paragraphs(bytes: number) {
  const out: string[] = [];
  let size = 0;
  let seed = 7;
  while (size < bytes) {
    const words: string[] = [];
    for (let i = 0; i < 14; i++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      words.push(WORDS[seed % WORDS.length]!);
    }
    const text = words.join(" ");
    out.push(text);
    size += text.length + 7; // <p></p>
  }
  return out;
}

export default function Page() {
  const { bytes } = useParams();
  const target = Math.min(2_000_000, Math.max(0, Number(bytes) || 0));
  return (
    <main>
      <h1>Floor</h1>
      {paragraphs(target).map((text, i) => (
        <p key={i}>{text}</p>
      ))}
    </main>
  );
}
