fn main() {
    println!("toolhelp16");
}
