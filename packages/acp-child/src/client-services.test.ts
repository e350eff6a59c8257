import { describe, expect, it } from "vitest";
import { clientServicesOf, NO_CLIENT_SERVICES } from "./client-services.js";

describe("clientServicesOf", () => {
  it("is all off for no capabilities, and for what our daemon and the reference daemon send", () => {
    expect(clientServicesOf(undefined)).toEqual(NO_CLIENT_SERVICES);
    expect(clientServicesOf({})).toEqual(NO_CLIENT_SERVICES);
    expect(clientServicesOf({ fs: { readTextFile: false, writeTextFile: false }, terminal: false })).toEqual(
      NO_CLIENT_SERVICES,
    );
    // The reference daemon advertises writes only (it writes the file on its disk).
    expect(clientServicesOf({ fs: { readTextFile: false, writeTextFile: true } })).toEqual({
      ...NO_CLIENT_SERVICES,
      writeTextFile: true,
    });
  });

  it("reads elicitation.form as present-and-not-null, and fs/terminal as literal true", () => {
    expect(clientServicesOf({ elicitation: { form: {} } }).elicitationForm).toBe(true);
    expect(clientServicesOf({ elicitation: { form: null, url: {} } }).elicitationForm).toBe(false);
    expect(clientServicesOf({ elicitation: {} }).elicitationForm).toBe(false);
    expect(
      clientServicesOf({
        fs: { readTextFile: true, writeTextFile: true },
        terminal: true,
        elicitation: { form: {} },
      }),
    ).toEqual({
      ...NO_CLIENT_SERVICES,
      elicitationForm: true,
      readTextFile: true,
      writeTextFile: true,
      terminal: true,
    });
    expect(clientServicesOf({ terminal: "yes" as never }).terminal).toBe(false);
  });

  it("reads the daemon's _meta keys as literal true, and a trusted parent (the reference daemon) as both", () => {
    const daemon = { _meta: { "qwen.daemon.questionAnswers": true, "qwen.daemon.restorePrompt": true } };
    expect(clientServicesOf(daemon)).toEqual({
      ...NO_CLIENT_SERVICES,
      questionAnswers: true,
      restorePrompt: true,
    });
    expect(clientServicesOf({ _meta: { "qwen.daemon.questionAnswers": "yes" } }).questionAnswers).toBe(false);
    expect(clientServicesOf({ fs: { readTextFile: false, writeTextFile: true } }, true)).toEqual({
      ...NO_CLIENT_SERVICES,
      writeTextFile: true,
      questionAnswers: true,
      restorePrompt: true,
    });
  });
});
