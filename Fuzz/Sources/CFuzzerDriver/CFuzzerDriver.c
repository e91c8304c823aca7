// The declaration lives in include/CFuzzerDriver.h; libFuzzer provides the definition.
