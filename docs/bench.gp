set terminal pngcairo size 1200,840 font 'sans,10'
set output 'docs/bench.png'
set termoption noenhanced
set multiplot layout 2,2 rowsfirst
set grid ytics
set key top left horizontal
$w0 << EOD
8 773.4 1131.0 692.3
64 761.0 1124.7 709.8
256 818.7 1117.5 862.2
EOD
$a0 << EOD
1 1.579 1.154 1.591
2 1.990 1.698 1.905
3 1.871 1.570 1.916
4 1.880 1.546 1.940
EOD
$w1 << EOD
8 1368.5 1991.5 1285.8
64 1528.3 2244.7 1404.0
256 1786.4 2474.5 1571.0
EOD
$a1 << EOD
1 0.628 0.414 0.656
2 1.160 0.793 1.207
3 1.124 0.794 1.304
4 1.163 0.842 1.248
EOD
set title 'x86_64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:1470.3]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w0 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'x86_64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:2.6]
set style data linespoints
set xtics 1
plot $a0 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
set title 'arm64: one writer, overwrite, no reader (ns per event, lower is better)'
set xlabel 'payload (bytes)'
set ylabel 'ns per event'
set yrange [0:3216.8]
set style data histograms
set style histogram clustered gap 1
set style fill solid 0.8 border -1
set boxwidth 0.9
set xtics autofreq
plot $w1 using 2:xtic(1) title 'lrb', '' using 3 title 'kernel', '' using 4 title 'locked'
set title 'arm64: all CPUs writing, overwrite, 64 bytes (M events/s, higher is better)'
set xlabel 'writer CPUs'
set ylabel 'M events/s'
set yrange [0:1.7]
set style data linespoints
set xtics 1
plot $a1 using 1:2 title 'lrb' lw 2, '' using 1:3 title 'kernel' lw 2, '' using 1:4 title 'locked' lw 2
unset multiplot
