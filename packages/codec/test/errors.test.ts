import { describe, expect, it } from "vitest";
import { CodecError, decodeNode } from "../src/index.js";
import { catchCodecError } from "./expect-codec-error.js";

describe("CodecError", () => {
  it("is an Error named CodecError that carries its code", () => {
    const error = new CodecError("INVALID_LENGTH", "blob is 3 bytes");
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(CodecError);
    expect(error.name).toBe("CodecError");
    expect(error.code).toBe("INVALID_LENGTH");
    expect(error.message).toBe("blob is 3 bytes");
    expect(String(error)).toBe("CodecError: blob is 3 bytes");
  });

  it("is what decoders throw, with a message naming the input", () => {
    const error = catchCodecError(() => decodeNode(Uint8Array.of(0x63, 0, 0, 0)));
    expect(error.code).toBe("INVALID_NODE_TYPE");
    expect(error.message).toContain("99");
    expect(error.message).toContain("4-byte");
  });
});
