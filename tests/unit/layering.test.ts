import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

// The layering rules of eslint.config.js, run through ESLint itself on texts placed where they
// would break a rule: each must fail, and the tree as it stands must pass (npm run lint).
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint();
});

async function layeringErrors(filePath: string, text: string) {
  const [result] = await eslint.lintText(text, { filePath });
  return result.messages.filter((m) => m.ruleId?.startsWith("import-x/")).map((m) => `${m.ruleId}: ${m.message}`);
}

describe("the layering rules", () => {
  it("refuse an import circle", async () => {
    // db.server imports env.server: env.server importing db.server back closes a circle.
    const errors = await layeringErrors("app/lib/env.server.ts", 'import { prisma } from "./db.server.ts";\nexport const x = prisma;\n');
    expect(errors).toEqual([expect.stringContaining("import-x/no-cycle")]);
  });

  it("refuse lib/ importing services/", async () => {
    const errors = await layeringErrors(
      "app/lib/probe.server.ts",
      'import { getSetting } from "~/services/site/settings.server.ts";\nexport const x = getSetting;\n',
    );
    expect(errors).toEqual([expect.stringContaining("lib/ is infrastructure")]);
  });

  it("refuse components/ importing routes/", async () => {
    const errors = await layeringErrors("app/components/probe.tsx", 'import Home from "~/routes/public/home.tsx";\nexport const x = Home;\n');
    expect(errors).toEqual([expect.stringContaining("components/ never import routes/")]);
  });

  it("let a service import lib/", async () => {
    expect(await layeringErrors("app/services/probe.server.ts", 'import { prisma } from "~/lib/db.server.ts";\nexport const x = prisma;\n')).toEqual([]);
  });
});
