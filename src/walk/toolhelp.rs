//! The ToolHelp stack walk (toolhelp.md). Filled in by the walker work.
