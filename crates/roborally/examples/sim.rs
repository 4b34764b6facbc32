fn main() {
    for c in roborally::board::shipped_courses() {
        for seed in 0..3 {
            println!("{:?}", roborally::random_game(&c, 4, seed));
        }
    }
}
