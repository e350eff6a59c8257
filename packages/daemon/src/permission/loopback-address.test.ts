import { describe, expect, it } from "vitest";
import { isLoopbackAddress } from "./loopback-address.js";

describe("isLoopbackAddress", () => {
  it.each([
    "127.0.0.1",
    "127.255.255.254",
    "127.1.2.3",
    "::1",
    "0:0:0:0:0:0:0:1",
    "::ffff:127.0.0.1",
    "::FFFF:127.9.8.7",
    "::ffff:7f00:1",
  ])("%s is loopback", (address) => {
    expect(isLoopbackAddress(address)).toBe(true);
  });

  it.each([
    undefined,
    "",
    "128.0.0.1",
    "10.0.0.1",
    "0.0.0.0",
    "::",
    "::2",
    "::ffff:10.0.0.1",
    "::ffff:128.0.0.1",
    "fe80::1",
    "127.0.0.256",
    "localhost",
    "127.0.0.1.evil",
    "::1]:80/[::1",
    "::1%lo0",
  ])("%s is not loopback", (address) => {
    expect(isLoopbackAddress(address)).toBe(false);
  });
});
