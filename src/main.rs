use clap::Parser;

fn main() {
    let cli = toolhelp16::cli::Cli::parse();
    std::process::exit(toolhelp16::cli::main_with(cli));
}
